// The security headers every response of Parley carries, whatever answers it (pages, route
// handlers, the direct path, errors, 404s, files). The server entry (apps/web/server.mjs) sets
// them on each response before anything else handles the request, in development and production
// alike; nothing else sets them. Plain JavaScript, because the server entry, which Node loads as
// is, reads them; security-headers.ts re-exports them beside the pages' Content-Security-Policy.

export const SECURITY_HEADERS = Object.freeze({
  // Browsers never guess a type other than the declared one (a JSON body is not a script).
  "x-content-type-options": "nosniff",
  // Other sites learn our origin from links, never a panel path or a search query.
  "referrer-policy": "strict-origin-when-cross-origin",
});
