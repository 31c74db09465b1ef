// The one rule for text PostgreSQL cannot store: U+0000 (text columns refuse it) and unpaired
// UTF-16 surrogates (not Unicode: jsonb refuses their `\ud800` escapes, text columns would get
// U+FFFD instead). JSON, query strings and percent-encoded paths can all carry them, so every
// entry point refuses them with this rule instead of failing in the database. Plain JavaScript,
// because the server entry (apps/web/server.mjs), which Node loads as is, applies it to paths.

/** The rule as `details` word it: `<field>: <rule>`. */
export const UNSTORABLE_TEXT_RULE = "must be valid Unicode text without NUL characters";

/** True for text PostgreSQL cannot store (see above). */
export function isUnstorableText(text) {
  return text.includes("\u0000") || /\p{Cs}/u.test(text);
}
