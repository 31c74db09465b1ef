// The URL schemes a link Parley renders may use, in one place: the Markdown sanitiser's allow-list
// (platform/markdown.ts) and the links the panel builds from structured data (rich content) both follow it.
// No dependencies, so browser code may import it.

export const LINK_SCHEMES: readonly string[] = ["http", "https", "mailto", "tel"];

/**
 * `value` when it is a relative URL or uses one of LINK_SCHEMES, else undefined. Parsed as a browser
 * parses an href (control characters, whitespace and case in the scheme do not hide it).
 */
export function safeLinkUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value, "https://relative.invalid/");
  } catch {
    return undefined;
  }
  return LINK_SCHEMES.includes(url.protocol.slice(0, -1)) ? value : undefined;
}

/**
 * `value` when it is an absolute https URL without credentials (a logo, a footer link an admin
 * sets: shown to every visitor, so never http, script or data URLs), else undefined.
 */
export function safeHttpsUrl(value: string): string | undefined {
  if (safeLinkUrl(value) === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "https:" && !url.username && !url.password && url.hostname ? value : undefined;
}

const PAGE_HOST = "relative.invalid";

/**
 * Where a link or image address on one of this site's pages (http or https) takes a browser when
 * that is another site: the address as the browser reads it (backslashes as slashes, tabs and
 * newlines dropped: `/\host` and `https:\\host` are `https://host/`), or `value` itself when it already
 * says so plainly (`https://host/...`, `//host/...`). undefined for this site's own addresses (any
 * relative URL that stays here) and for other schemes.
 */
export function foreignWebUrl(value: string): string | undefined {
  for (const page of [`https://${PAGE_HOST}/`, `http://${PAGE_HOST}/`]) {
    let url: URL;
    try {
      url = new URL(value, page);
    } catch {
      continue;
    }
    if ((url.protocol === "https:" || url.protocol === "http:") && url.host !== PAGE_HOST) {
      return /^(?:https?:)?\/\/[^/\\]/i.test(value) && !/[\\\t\n\r]/.test(value) ? value : url.href;
    }
  }
  return undefined;
}
