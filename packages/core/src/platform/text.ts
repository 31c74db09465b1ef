// Text PostgreSQL cannot store (the rule: platform/storable-text.mjs), refused where requests enter: the
// messages API's body reader (messages/body.ts), the widget's frame parser (widget/protocol.ts),
// the help routes' query (help/articles.ts), the panel's procedures (packages/api), the panel's
// REST routes' query strings (storableQuery) and the server entry's path check. Each answers 400 / an `error` frame naming the field instead of failing in
// the database.
import { z } from "zod";
import { AppError } from "./errors.ts";
import { isUnstorableText, UNSTORABLE_TEXT_RULE } from "./storable-text.mjs";

export { isUnstorableText, UNSTORABLE_TEXT_RULE };

/**
 * Where the first string (a value or a key) of parsed JSON holding unstorable text is, as a dotted
 * path (`visitor.name`, `clientVariables (a key)`), `root` for the value itself, or null.
 * Iterative: bodies may nest deep.
 */
export function pathOfUnstorableText(value: unknown, root = "body"): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  while (stack.length > 0) {
    const { value: item, path } = stack.pop()!;
    if (typeof item === "string") {
      if (isUnstorableText(item)) return path || root;
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        // A bad key is named by where it is (it cannot be shown as it is).
        if (isUnstorableText(key)) return `${path || root} (a key)`;
        stack.push({ value: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return null;
}

/** A zod string that refuses unstorable text with the rule's wording. */
export function storableString(): z.ZodString {
  return z.string().refine((value) => !isUnstorableText(value), UNSTORABLE_TEXT_RULE);
}

/**
 * A query string's parameters as an object, the last value of a name winning, with empty values
 * dropped when `dropEmpty` (a form's blank field). A name or value holding unstorable text is
 * refused with 400 naming it, before any schema, limit or audit sees the query.
 */
export function storableQuery(params: URLSearchParams, { dropEmpty = false } = {}): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of params) {
    if (isUnstorableText(name)) throw new AppError("INVALID_REQUEST", { details: `query (a name): ${UNSTORABLE_TEXT_RULE}` });
    if (isUnstorableText(value)) throw new AppError("INVALID_REQUEST", { details: `${name}: ${UNSTORABLE_TEXT_RULE}` });
    if (!dropEmpty || value !== "") query[name] = value;
  }
  return query;
}

/** Characters as people count them (Unicode code points), so an emoji is one character, not two. */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
