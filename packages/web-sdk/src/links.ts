// Addresses the widget opens or links to come from the server (an article's page, a reply's url
// button), and a reply can carry what a model was talked into writing: only a web address is
// followed, never `javascript:`, `data:` or another scheme that runs in the host page.

/** `value` when it is an absolute http(s) address, else null. */
export function webAddress(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
