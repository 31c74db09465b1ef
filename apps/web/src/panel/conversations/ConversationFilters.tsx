"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useTRPC } from "../trpc.ts";
import { SelectField } from "../ui/fields.tsx";
import { filtersQuery, type InboxFilters } from "./filters.ts";

/** Filters live in the URL, so a filtered list can be linked and reloaded. */
export function ConversationFilters({ filters }: { filters: InboxFilters }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const agents = useQuery(trpc.agents.list.queryOptions());
  const team = useQuery(trpc.team.list.queryOptions());

  function apply(next: Partial<Record<keyof InboxFilters, string>>) {
    const query = filtersQuery({ ...filters, ...next } as InboxFilters);
    router.replace(query ? `${pathname}?${query}` : pathname);
  }

  return (
    <form className="form-inline inbox-filters" aria-label="Filter conversations" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Assigned to" value={filters.assignee ?? ""} onChange={(event) => apply({ assignee: event.target.value })}>
        <option value="">Everyone</option>
        <option value="mine">Me</option>
        <option value="unassigned">Nobody (unassigned)</option>
        {(team.data ?? []).map((member) => (
          <option key={member.id} value={member.id}>
            {member.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Status" value={filters.status ?? ""} onChange={(event) => apply({ status: event.target.value })}>
        <option value="">All statuses</option>
        <option value="escalated">Escalated</option>
        <option value="active">Active</option>
        <option value="resolved">Resolved</option>
      </SelectField>
      <SelectField label="Agent" value={filters.agentId ?? ""} onChange={(event) => apply({ agentId: event.target.value })}>
        <option value="">All agents</option>
        {(agents.data ?? []).map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
        {filters.agentId && agents.data && !agents.data.some((agent) => agent.id === filters.agentId) ? (
          <option value={filters.agentId}>{filters.agentId}</option>
        ) : null}
      </SelectField>
    </form>
  );
}
