"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { type FormEvent, useId, useRef, useState } from "react";
import { useShortcuts } from "../inbox/shortcuts.ts";
import { useTRPC } from "../trpc.ts";
import { SelectField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { filtersQuery, type InboxFilters } from "./filters.ts";

/**
 * Search and filters live in the URL, so a filtered list can be linked and reloaded. `/` focuses
 * search. The filters sit behind a "Filters" button (the list's column is narrow, a phone narrower),
 * which counts the ones in use.
 */
export function ConversationFilters({ filters }: { filters: InboxFilters }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const agents = useQuery(trpc.agents.list.queryOptions());
  const team = useQuery(trpc.team.list.queryOptions());
  const [query, setQuery] = useState(filters.q ?? "");
  const searchRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const inUse = activeFilterCount(filters);
  useShortcuts({ "/": () => searchRef.current?.focus() });

  function apply(next: Partial<Record<keyof InboxFilters, string>>) {
    const search = filtersQuery({ ...filters, ...next } as InboxFilters);
    router.replace(search ? `${pathname}?${search}` : pathname);
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    apply({ q: query.trim() });
  }

  return (
    <div className="inbox-filters-block">
      <search>
        <PanelForm className="form-inline inbox-search" aria-label="Search conversations" onSubmit={submit}>
          <TextField
            ref={searchRef}
            label="Search conversations"
            type="search"
            name="q"
            maxLength={200}
            aria-keyshortcuts="/"
            placeholder="Words, names, emails…"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              if (event.target.value === "" && filters.q) apply({ q: "" });
            }}
          />
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </PanelForm>
      </search>
      <button
        type="button"
        className={inUse > 0 ? "btn btn-small inbox-filters-toggle inbox-filters-toggle-active" : "btn btn-small inbox-filters-toggle"}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
      >
        Filters
        {inUse > 0 ? (
          <span className="inbox-filters-count">
            {inUse}
            <span className="visually-hidden"> in use</span>
          </span>
        ) : null}
      </button>
      <PanelForm
        id={panelId}
        hidden={!open}
        className="inbox-filters"
        aria-label="Filter conversations"
        onSubmit={(event) => event.preventDefault()}
      >
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
        <SelectField label="Channel" value={filters.channel ?? ""} onChange={(event) => apply({ channel: event.target.value })}>
          <option value="">All channels</option>
          <option value="widget">Widget</option>
          <option value="api">HTTP API</option>
        </SelectField>
        <SelectField label="Rating" value={filters.rating ?? ""} onChange={(event) => apply({ rating: event.target.value })}>
          <option value="">Any rating</option>
          <option value="good">Rated good</option>
          <option value="okay">Rated okay</option>
          <option value="bad">Rated bad</option>
        </SelectField>
        <TextField label="Started from" type="date" value={filters.from ?? ""} onChange={(event) => apply({ from: event.target.value })} />
        <TextField label="Started to" type="date" value={filters.to ?? ""} onChange={(event) => apply({ to: event.target.value })} />
        {inUse > 0 ? (
          <button
            type="button"
            className="btn btn-small inbox-filters-clear"
            onClick={() => apply({ agentId: "", status: "", assignee: "", channel: "", rating: "", from: "", to: "" })}
          >
            Clear filters
          </button>
        ) : null}
      </PanelForm>
    </div>
  );
}

/** The filters set besides the search words. */
function activeFilterCount(filters: InboxFilters): number {
  const { q: _search, ...rest } = filters;
  return Object.values(rest).filter(Boolean).length;
}
