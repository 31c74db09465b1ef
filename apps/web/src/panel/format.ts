// Display formatting. Dates arrive as ISO strings (tRPC serialises with JSON, no transformer).

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const integer = new Intl.NumberFormat();

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "";
  return dateTime.format(new Date(value));
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
