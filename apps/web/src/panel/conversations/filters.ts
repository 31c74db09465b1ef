// The inbox's filters and search, as the URL carries them (?q=&agent=&status=&assignee=&channel=
// &rating=&from=&to=), so a filtered list can be linked and reloaded. `assignee` is "mine", "unassigned" or
// a team member's id; absent: all. `from` and `to` are days (YYYY-MM-DD, the browser's time zone),
// both included.
export type StatusFilter = "active" | "escalated" | "resolved";
export type RatingFilter = "good" | "okay" | "bad";

export interface InboxFilters {
  q?: string;
  agentId?: string;
  status?: StatusFilter;
  assignee?: string;
  channel?: "api" | "widget";
  /** The visitor's rating after the conversation was resolved. */
  rating?: RatingFilter;
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseFilters(params: Record<string, string | string[] | undefined>): InboxFilters {
  const text = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() ? value.trim() : undefined);
  const status = text(params.status);
  const channel = text(params.channel);
  const rating = text(params.rating);
  const day = (value: string | string[] | undefined) => {
    const found = text(value);
    return found && DAY.test(found) ? found : undefined;
  };
  return {
    q: text(params.q)?.slice(0, 200),
    agentId: text(params.agent),
    status: status === "active" || status === "escalated" || status === "resolved" ? status : undefined,
    assignee: text(params.assignee),
    channel: channel === "api" || channel === "widget" ? channel : undefined,
    rating: rating === "good" || rating === "okay" || rating === "bad" ? rating : undefined,
    from: day(params.from),
    to: day(params.to),
  };
}

export function filtersQuery(filters: InboxFilters): string {
  const params = new URLSearchParams();
  const entries: Array<[string, string | undefined]> = [
    ["q", filters.q],
    ["agent", filters.agentId],
    ["status", filters.status],
    ["assignee", filters.assignee],
    ["channel", filters.channel],
    ["rating", filters.rating],
    ["from", filters.from],
    ["to", filters.to],
  ];
  for (const [name, value] of entries) if (value) params.set(name, value);
  return params.toString();
}

export function hasFilters(filters: InboxFilters): boolean {
  return Object.values(filters).some(Boolean);
}

/** The list procedure's input: days become the start of `from` and the end of `to`, locally. */
export function listInput(filters: InboxFilters) {
  const startOf = (day: string, plusDays = 0) => {
    const [year, month, date] = day.split("-").map(Number) as [number, number, number];
    return new Date(year, month - 1, date + plusDays).toISOString();
  };
  return {
    q: filters.q,
    agentId: filters.agentId,
    status: filters.status,
    assignee: filters.assignee,
    channel: filters.channel,
    rating: filters.rating,
    createdFrom: filters.from ? startOf(filters.from) : undefined,
    createdTo: filters.to ? startOf(filters.to, 1) : undefined,
  };
}

/** The export download's URL: the list's filters as the export route reads them, and a format. */
export function exportUrl(filters: InboxFilters, format: "csv" | "json"): string {
  const params = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(listInput(filters))) if (value) params.set(name, value);
  return `/api/panel/conversations/export?${params}`;
}
