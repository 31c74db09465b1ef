// Display formatting. Dates arrive as ISO strings (tRPC serialises with JSON, no transformer).

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const integer = new Intl.NumberFormat();

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "";
  return dateTime.format(new Date(value));
}

/** To the second: versions saved a moment apart read apart (an article's history). */
export function formatDateTimeSeconds(value: string | Date | null | undefined): string {
  if (!value) return "";
  return dateTimeSeconds.format(new Date(value));
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return "";
  return dateOnly.format(new Date(value));
}

export function formatNumber(value: number): string {
  return integer.format(value);
}

/** "" means unlimited, or what `empty` names (null); anything else must be a whole number. */
export function parseLimit(text: string, empty = "unlimited"): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { value: null };
  if (!/^\d+$/.test(trimmed)) return { error: `Enter a whole number, or leave empty for ${empty}.` };
  return { value: Number(trimmed) };
}

export function limitText(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "5 minutes ago", "yesterday", "3 months ago": when something happened, in words. */
export function formatRelative(value: string | Date, now: number = Date.now()): string {
  let amount = (new Date(value).getTime() - now) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return unit === "second" && Math.abs(amount) < 45 ? "just now" : relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatDateTime(value);
}

/** How long since `since`, short: "just now", "4 min", "2 h 5 min", "3 d". */
export function formatWaited(since: string | Date, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

/** An article's help-centre views: "1 view", "1,204 views". */
export function formatViews(views: number): string {
  return `${formatNumber(views)} ${views === 1 ? "view" : "views"}`;
}
