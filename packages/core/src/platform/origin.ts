// Cross-site request forgery guard for cookie-authenticated writes (tRPC mutations, key routes):
// a browser always names the page's origin in `Origin` on such requests, so a write is refused when
// that origin is neither the configured app URL nor the host the request was sent to.
import type { TrustProxy } from "./trust-proxy.ts";

/** Request headers as a fetch Request or the app's transport offers them. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Whether the request may act with the admin's cookie (no foreign Origin). Behind any trusted proxy
 * (TRUST_PROXY set) the host it forwarded counts too; a page cannot make a browser send
 * X-Forwarded-Host to another site without a CORS preflight, which the panel never grants.
 */
export function isSameOrigin(request: { headers: HeaderReader }, appUrl: string, trustProxy: TrustProxy = false): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) {
    // Browsers that omit Origin still say where the request came from.
    return request.headers.get("sec-fetch-site") !== "cross-site";
  }
  let host: string;
  let normalized: string;
  try {
    const url = new URL(origin);
    host = url.host;
    normalized = url.origin;
  } catch {
    return false; // "null" (sandboxed pages, privacy redirects) or garbage
  }
  if (normalized === new URL(appUrl).origin) return true;
  const requestHosts = [request.headers.get("host")];
  if (trustProxy) requestHosts.push(request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? null);
  return requestHosts.some((candidate) => candidate !== null && candidate.toLowerCase() === host);
}
