// The placeholders of saved replies, filled in for a conversation when a reply is inserted:
//   {{visitor.name}}, {{visitor.email}}, {{agent.name}}, {{me.name}}
// each with an optional fallback for when the value is unknown: {{visitor.name|there}}.
// Pure (no database): the panel's client lists them too.

export const SAVED_REPLY_PLACEHOLDERS = ["visitor.name", "visitor.email", "agent.name", "me.name"] as const;
export type Placeholder = (typeof SAVED_REPLY_PLACEHOLDERS)[number];

// {{ name }} or {{ name | fallback }}; the fallback may hold anything but braces.
const PLACEHOLDER = /\{\{\s*([a-z.]+)\s*(?:\|([^{}]*))?\}\}/g;
// The same, with the space before it (dropped along with an empty value).
const SPACED_PLACEHOLDER = new RegExp(` ?${PLACEHOLDER.source}`, "g");

export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1]!)
    .filter((name) => !(SAVED_REPLY_PLACEHOLDERS as readonly string[]).includes(name));
}

/**
 * Replaces each placeholder with its value, else its fallback; an empty one takes the space before
 * it along ("Hi {{visitor.name}}," reads "Hi,", not "Hi ,").
 */
export function fillPlaceholders(text: string, values: Record<Placeholder, string>): string {
  return text.replace(SPACED_PLACEHOLDER, (whole, name: string, fallback: string | undefined) => {
    const value = values[name as Placeholder] || fallback?.trim() || "";
    const space = whole.startsWith(" ") ? " " : "";
    return value ? space + value : "";
  });
}
