// The security headers on every response of the real server (server.mjs over the production build),
// whichever way it is answered: every route the app declares (test/support/app-routes.ts: each
// page, route file and metadata file under app/, and each route of the direct path), signed out and
// signed in; a file of Next's build; 404s (a page, an API path, a direct route's); the refusals
// server.mjs writes itself (400 path, 308, 413 body cap); 405s; and 500s while the database is
// unreachable (a direct route, a page, a route file). Pages also carry the proxy's CSP.
// server.mjs sets the headers in one place before anything answers; this holds it to that.

import { AUTH_BODY_MAX_BYTES } from "@parley/core/limits";
import { SECURITY_HEADERS } from "@parley/core/security-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_APP_NODE_OPTIONS } from "../../../scripts/app-process.mjs";
import { appRoutes, samplePath } from "../test/support/app-routes.ts";
import { rawRequest } from "../test/support/raw-request.ts";
import { type AppInstance, printLogsOnFailure, redisUrl, startApp } from "./support/apps.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, appDatabaseUrl, createSeededDatabase, type ServerDatabase } from "./support/database.ts";
import { signIn } from "./support/http.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";

/** Values for the routes' parameters: the demo data's, or a name that does not exist. */
const PARAMS: Record<string, string> = {
  agentId: "demo",
  agent_id: "demo",
  itemId: "art-refunds",
  articleId: "art-refunds",
  sourceId: "src-billing",
  token: "no-such-invitation",
  conversationId: "no-such-conversation",
  endpointId: "no-such-endpoint",
  trpc: "agents.list",
  nextauth: "csrf",
  file: "docs.js",
};

let db: ServerDatabase;
let proxy: TcpProxy;
let app: AppInstance;

beforeAll(async () => {
  db = await createSeededDatabase();
  const server = new URL(db.url);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  app = await startApp({
    name: "security-headers",
    env: {
      DATABASE_URL: appDatabaseUrl(db.url, "parley-security-headers", proxy),
      REDIS_URL: redisUrl(),
      // Headers, not limits, are under test: the help routes' per-IP limit (shared through Redis
      // with the suite's other files) must not answer 429 before the 500s are asked for.
      RATE_LIMIT_SCALE: "1000",
      // Every page's code is loaded into this one process (twice over: signed out and in), more
      // than the old generation's cap on PostgreSQL (176 MB) holds: the embedded database's cap.
      NODE_OPTIONS: EMBEDDED_APP_NODE_OPTIONS,
    },
  });
});
printLogsOnFailure(() => [app]);
afterAll(async () => {
  await app?.stop();
  await proxy?.close();
  await db?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
}

/** The status and headers of a request (no redirect followed); the body is not waited for (event streams never end). */
async function answer(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`, { redirect: "manual", ...init });
  await response.body?.cancel();
  return { status: response.status, headers: Object.fromEntries(response.headers) };
}

function expectSecurityHeaders(what: string, { headers }: Answer): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], `${name} on ${what}`).toBe(value);
}

describe("every route the app declares", () => {
  it("lists pages, route files, files and the direct routes", () => {
    const kinds = new Set(appRoutes().map((route) => route.kind));
    expect([...kinds].sort()).toEqual(["direct", "file", "page", "route file"]);
  });

  for (const session of ["signed out", "signed in"] as const) {
    it(`carries the security headers on each, ${session}; each page the CSP`, async () => {
      const cookie = session === "signed in" ? await signIn(app.url, ADMIN_EMAIL, ADMIN_PASSWORD) : undefined;
      for (const route of appRoutes()) {
        const path = samplePath(route.path, PARAMS);
        const what = `${route.kind} ${path} (${session})`;
        const response = await answer(path, { headers: cookie ? { cookie } : {} });
        expect(response.status, what).toBeLessThan(500);
        expectSecurityHeaders(what, response);
        if (route.kind === "page") expect(response.headers["content-security-policy"], `CSP on ${what}`).toContain("'nonce-");
      }
    });
  }

  it("and on a POST to the direct path, and a file of Next's build", async () => {
    const post = await answer("/api/agent/demo/messages", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(post.status).toBe(401);
    expectSecurityHeaders("POST /api/agent/demo/messages", post);
    const page = await (await fetch(`${app.url}/signin`)).text();
    const chunk = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page)?.[1];
    expect(chunk).toBeTruthy();
    const file = await answer(chunk!);
    expect(file.status).toBe(200);
    expectSecurityHeaders(chunk!, file);
  });
});

describe("errors", () => {
  it("404s: a page, an API path, a direct route's", async () => {
    for (const path of ["/no-such-page", "/help/no-such-agent", "/api/no-such-route", "/api/agent/no-such-agent/help"]) {
      const response = await answer(path);
      expect(response.status, path).toBe(404);
      expectSecurityHeaders(`404 ${path}`, response);
    }
  });

  it("405s on the direct path and on a route file", async () => {
    for (const [method, path] of [
      ["PUT", "/api/agent/demo/help"],
      ["GET", "/api/agent/demo/messages"],
      ["GET", "/api/agents/demo/http-api-key"],
    ] as const) {
      const response = await answer(path, { method });
      expect(response.status, `${method} ${path}`).toBe(405);
      expectSecurityHeaders(`405 ${method} ${path}`, response);
    }
  });

  it("the refusals server.mjs writes before any route: 400 path, 308 doubled slash, 413 body cap", async () => {
    const malformed = await answer("/%E0%A4%A");
    expect(malformed.status).toBe(400);
    expectSecurityHeaders("400 /%E0%A4%A", malformed);
    const doubled = await answer("//panel");
    expect(doubled.status).toBe(308);
    expectSecurityHeaders("308 //panel", doubled);
    const tooLarge = await rawRequest(app.url, "/api/auth/callback/credentials", { declared: AUTH_BODY_MAX_BYTES + 1, total: 0 });
    expect(tooLarge.status).toBe(413);
    expectSecurityHeaders("413 /api/auth/callback/credentials", tooLarge);
  });

  it("500s while the database is unreachable: a direct route, a page, a route file", async () => {
    await proxy.cut();
    try {
      for (const [path, status] of [
        ["/api/agent/demo/help/articles/art-refunds", 500],
        ["/help/demo", 500],
        ["/api/health", 503],
      ] as const) {
        const response = await answer(path);
        expect(response.status, path).toBe(status);
        expectSecurityHeaders(`${status} ${path}`, response);
      }
    } finally {
      await proxy.restore();
    }
  });
});
