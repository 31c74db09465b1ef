"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useTRPC } from "../trpc.ts";
import { SelectField } from "../ui/fields.tsx";
import type { StatusFilter } from "./ConversationsScreen.tsx";

/** Filters live in the URL (?agent=&status=), so a filtered list can be linked and reloaded. */
export function ConversationFilters({ agentId, status }: { agentId?: string; status?: StatusFilter }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const agents = useQuery(trpc.agents.list.queryOptions());

  function apply(next: { agent?: string; status?: string }) {
    const params = new URLSearchParams();
    const agent = next.agent ?? agentId ?? "";
    const state = next.status ?? status ?? "";
    if (agent) params.set("agent", agent);
    if (state) params.set("status", state);
    const query = params.toString();
    router.replace(query ? `${pathname}?${query}` : pathname);
  }

  return (
    <form className="form-inline toolbar" aria-label="Filter conversations" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Agent" value={agentId ?? ""} onChange={(event) => apply({ agent: event.target.value })}>
        <option value="">All agents</option>
        {(agents.data ?? []).map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
        {agentId && agents.data && !agents.data.some((agent) => agent.id === agentId) ? <option value={agentId}>{agentId}</option> : null}
      </SelectField>
      <SelectField label="Status" value={status ?? ""} onChange={(event) => apply({ status: event.target.value })}>
        <option value="">All statuses</option>
        <option value="escalated">Escalated</option>
        <option value="active">Active</option>
      </SelectField>
    </form>
  );
}
