// Where an admin goes after signing in: the one rule for the sign-in page and next-auth's redirect
// callback. Only a path of this site is followed; anything else (another host however spelled, a
// script URL, a value browsers would read differently than it looks) goes to the panel.
import { CALLBACK_URL_MAX_CHARS } from "@parley/core/people/limits";

export const DEFAULT_CALLBACK_PATH = "/panel";

/**
 * The path, query and fragment `value` names on this site, or "/panel". `value` is parsed as a
 * browser would (tabs and newlines dropped, backslashes read as slashes) against `appOrigin`, and
 * must stay on that origin; the result is re-checked so that it cannot be read as "//host" either.
 */
export function safeCallbackUrl(value: unknown, appOrigin: string): string {
  if (typeof value !== "string" || value === "" || value.length > CALLBACK_URL_MAX_CHARS) return DEFAULT_CALLBACK_PATH;
  const origin = new URL(appOrigin).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.example" parses on this origin to the path "//evil.example", a host of its own.
  if (url.origin !== origin || new URL(path, origin).origin !== origin) return DEFAULT_CALLBACK_PATH;
  return path;
}
