"use client";

import {
  AUDIT_ACTIONS,
  AUDIT_GROUPS,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  auditActionsOf,
} from "@parley/core/browser";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, formatRelative } from "../format.ts";
import { type RouterInputs, type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField, TextField } from "../ui/fields.tsx";
import { PhoneFilters } from "../ui/PhoneFilters.tsx";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";

type AuditEvent = RouterOutputs["audit"]["list"]["items"][number];
type Group = (typeof AUDIT_GROUPS)[number];
type TargetType = (typeof AUDIT_TARGET_TYPES)[number];

interface Filters {
  actorUserId: string;
  /** "" (every action), "group:<Group>" or one action's name. */
  action: string;
  targetType: "" | TargetType;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { actorUserId: "", action: "", targetType: "", from: "", to: "" };

function listInput(filters: Filters): RouterInputs["audit"]["list"] {
  const group = filters.action.startsWith("group:") ? (filters.action.slice(6) as Group) : undefined;
  return {
    actorUserId: filters.actorUserId || undefined,
    group,
    action: !group && filters.action ? (filters.action as AuditAction) : undefined,
    targetType: filters.targetType || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
  };
}

/** The workspace's audit log: newest first, filtered, read only. */
export function AuditScreen() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const set = (name: keyof Filters) => (event: { target: { value: string } }) => setFilters({ ...filters, [name]: event.target.value });
  const rangeError = filters.from && filters.to && filters.from > filters.to ? "The end date is before the start" : undefined;
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <div className="page-heading">
        <h1>Audit log</h1>
      </div>
      <p className="muted">Every change made in this workspace: who, what and from where. Nobody can edit or delete it.</p>
      <PhoneFilters active={Object.values(filters).filter(Boolean).length}>
        <form className="audit-filters" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
          <ActorFilter value={filters.actorUserId} onChange={set("actorUserId")} />
          <SelectField label="Action" value={filters.action} onChange={set("action")}>
            <option value="">All actions</option>
            {AUDIT_GROUPS.map((group) => (
              <optgroup key={group} label={group}>
                <option value={`group:${group}`}>All {group.toLowerCase()}</option>
                {auditActionsOf(group).map((action) => (
                  <option key={action} value={action}>
                    {AUDIT_ACTIONS[action].label}
                  </option>
                ))}
              </optgroup>
            ))}
          </SelectField>
          <SelectField label="Target" value={filters.targetType} onChange={set("targetType")}>
            <option value="">Everything</option>
            {AUDIT_TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {AUDIT_TARGET_LABELS[type]}
              </option>
            ))}
          </SelectField>
          <TextField label="From" type="date" value={filters.from} onChange={set("from")} max={filters.to || undefined} />
          <TextField label="To" type="date" value={filters.to} onChange={set("to")} min={filters.from || undefined} error={rangeError} />
          {filtered ? (
            <div className="field">
              <button type="button" className="btn btn-secondary" onClick={() => setFilters(NO_FILTERS)}>
                Clear filters
              </button>
            </div>
          ) : null}
        </form>
      </PhoneFilters>
      {rangeError ? null : <AuditTable input={listInput(filters)} filtered={filtered} />}
    </>
  );
}

function ActorFilter({ value, onChange }: { value: string; onChange: (event: { target: { value: string } }) => void }) {
  const trpc = useTRPC();
  const actors = useQuery(trpc.audit.actors.queryOptions());
  return (
    <SelectField label="Who" value={value} onChange={onChange}>
      <option value="">Everyone</option>
      {(actors.data ?? []).map((actor) => (
        <option key={actor.userId} value={actor.userId}>
          {actor.email}
        </option>
      ))}
    </SelectField>
  );
}

function AuditTable({ input, filtered }: { input: RouterInputs["audit"]["list"]; filtered: boolean }) {
  const trpc = useTRPC();
  const events = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  if (events.isPending) return <Loading label="Loading the audit log…" />;
  if (events.isError) return <QueryError error={events.error} onRetry={() => events.refetch()} />;
  const items = events.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return (
      <EmptyState>
        {filtered
          ? "No changes match these filters."
          : "Nothing recorded yet. Changes to agents, keys, articles, webhooks and people appear here."}
      </EmptyState>
    );
  return (
    <>
      <ScrollTable label="Changes" className="audit-table-wrap">
        <table className="audit-table">
          <caption className="visually-hidden">Changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {items.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {events.hasNextPage ? (
        <ActionButton onClick={() => events.fetchNextPage()} pending={events.isFetchingNextPage} pendingLabel="Loading…">
          Load more
        </ActionButton>
      ) : null}
    </>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  const detail = detailText(event.detail);
  return (
    <tr data-testid="audit-event">
      <td>
        <time dateTime={new Date(event.createdAt).toISOString()} title={formatDateTime(event.createdAt)}>
          {formatRelative(event.createdAt)}
        </time>
      </td>
      <td className="audit-who">{event.actorEmail || "Removed person"}</td>
      <td>
        {event.summary}
        {detail ? <div className="muted small">{detail}</div> : null}
      </td>
      <td className="audit-ip" data-label="From" title={event.userAgent || undefined}>
        {event.ip}
      </td>
    </tr>
  );
}

const DETAIL_NAMES: Record<string, string> = {
  fields: "Changed",
  from: "From",
  to: "To",
  role: "Role",
  format: "Format",
  filters: "Filters",
  eventTypes: "Events",
  agentIds: "Agents",
  previousName: "Was",
  published: "Published",
  reason: "Reason",
};

/** The event's detail in one short line ("Changed: instructions, name"). */
function detailText(detail: AuditEvent["detail"]): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0))
    .map(([name, value]) => `${DETAIL_NAMES[name] ?? name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
    .join(" · ");
}
