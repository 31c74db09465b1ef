// Text PostgreSQL cannot store, refused where requests enter (the messages API's body reader,
// messages/body.ts, and the widget's frame parser, widget/protocol.ts) so both channels answer 400
// / an `error` frame naming the field instead of failing in the database.

/** The rule as `details` word it: `<field>: <rule>`. */
export const UNSTORABLE_TEXT_RULE = "must be valid Unicode text without NUL characters";

/**
 * Text PostgreSQL cannot store: U+0000, and unpaired UTF-16 surrogates (not Unicode; jsonb refuses
 * their `\ud800` escapes). JSON can carry both as escapes, so a turn would fail in the database.
 */
export function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || /\p{Cs}/u.test(text);
}

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
