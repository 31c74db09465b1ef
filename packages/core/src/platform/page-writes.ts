// Writes to pages: Next's server actions (accepting an invitation, the help centre's feedback),
// which a page's form posts to the page's own path. Next refuses one whose Origin is another
// site's, but with a bare 500 before the action runs; the app's proxy applies the panel's
// same-origin rule (platform/origin.ts) first and answers 403 with the API's error body. Light
// imports only: the proxy runs before every page.

import { type ErrorBody, PLATFORM_ERRORS } from "./errors.ts";
import { type HeaderReader, isSameOrigin } from "./origin.ts";
import { parseTrustProxy } from "./trust-proxy.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The 403 for a write to a page from another site, or null when it may go on. `trustProxy`: TRUST_PROXY as set. */
export function crossSitePageWrite(
  request: { method: string; headers: HeaderReader },
  appUrl: string,
  trustProxy: string | undefined,
): { status: number; body: ErrorBody } | null {
  if (READS.has(request.method.toUpperCase())) return null;
  const parsed = parseTrustProxy(trustProxy);
  if (isSameOrigin(request, appUrl, parsed.ok ? parsed.value : false)) return null;
  return { status: PLATFORM_ERRORS.FORBIDDEN.status, body: { error: PLATFORM_ERRORS.FORBIDDEN.message } };
}
