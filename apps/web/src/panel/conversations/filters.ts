// The inbox's filters, as the URL carries them (?agent=&status=&assignee=), so a filtered list can
// be linked and reloaded. `assignee` is "mine", "unassigned" or a team member's id; absent: all.
export type StatusFilter = "active" | "escalated" | "resolved";

export interface InboxFilters {
  agentId?: string;
  status?: StatusFilter;
  assignee?: string;
}

export function parseFilters(params: Record<string, string | string[] | undefined>): InboxFilters {
  const text = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : undefined);
  const status = text(params.status);
  return {
    agentId: text(params.agent),
    status: status === "active" || status === "escalated" || status === "resolved" ? status : undefined,
    assignee: text(params.assignee),
  };
}

export function filtersQuery(filters: InboxFilters): string {
  const params = new URLSearchParams();
  if (filters.agentId) params.set("agent", filters.agentId);
  if (filters.status) params.set("status", filters.status);
  if (filters.assignee) params.set("assignee", filters.assignee);
  return params.toString();
}

export function hasFilters(filters: InboxFilters): boolean {
  return Boolean(filters.agentId || filters.status || filters.assignee);
}
