// Next.js proxy (the request hook that runs before every matched route): refuses a write to a page
// from another site (@parley/core/page-writes) and gives each page a Content-Security-Policy with a
// fresh nonce (@parley/core/security-headers). The policy goes on
// the request too, where Next reads the nonce for its own scripts. Pages are rendered per request
// (the root layout waits for the request), so every response gets its own nonce.
// Next bundles the proxy on its own: it reads its few settings here (src/site.ts's schema) rather
// than load src/env.ts, which brings core's engine, voice and search settings with it.

import { crossSitePageWrite } from "@parley/core/page-writes";
import { contentSecurityPolicy, NONCE_HEADER } from "@parley/core/security-headers";
import { type NextRequest, NextResponse } from "next/server";
import { publicUrl, siteSettingsSchema } from "./src/site.ts";

let appUrl: string | undefined;

/** APP_URL, else http://localhost:PORT, read once. */
function publicAppUrl(): string {
  appUrl ??= publicUrl(siteSettingsSchema.pick({ APP_URL: true, PORT: true }).parse(process.env));
  return appUrl;
}

export function proxy(request: NextRequest): NextResponse {
  // A write to a page (a server action) from another site: 403 here, not Next's bare 500.
  const refusal = crossSitePageWrite(request, publicAppUrl(), process.env.TRUST_PROXY);
  if (refusal) return NextResponse.json(refusal.body, { status: refusal.status });
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy({ nonce, appUrl: publicAppUrl(), development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.set(NONCE_HEADER, nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages (and /docs, the sign-in redirects, error pages); not the API, files or Next's assets.
  matcher: ["/((?!api/|_next/static/|_next/image|favicon.ico|widget.js|docs/assets/).*)"],
};
