// What the real server (server.mjs over the production build) answers before any route may
// misjudge a request: a path that routes elsewhere than it reads (dot segments in any spelling,
// backslashes, doubled slashes) is refused with 400 before a body cap or route is chosen, its body
// unread; next-auth never sees a JSON body that does not parse; a page's form posted from another
// site gets 403; a panel query holding a NUL is a 400 naming it, before any hourly count.
// RELIABILITY_PORT sets the app's port (a free one otherwise), for machines that share port ranges.
import { INBOX_EXPORTS_PER_HOUR } from "@parley/core/conversations/limits";
import { PATH_SEGMENTS_RULE } from "@parley/core/request-path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../test/support/raw-request.ts";
import { type AppInstance, printLogsOnFailure, redisUrl, startApp } from "./support/apps.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, appDatabaseUrl, createSeededDatabase, type ServerDatabase } from "./support/database.ts";
import { request, signIn } from "./support/http.ts";

let db: ServerDatabase;
let app: AppInstance;

beforeAll(async () => {
  db = await createSeededDatabase();
  app = await startApp({
    name: "request-targets",
    port: Number(process.env.RELIABILITY_PORT ?? 0) || undefined,
    env: { DATABASE_URL: appDatabaseUrl(db.url, "parley-request-targets"), REDIS_URL: redisUrl() },
  });
});
printLogsOnFailure(() => [app]);
afterAll(async () => {
  await app?.stop();
  await db?.close();
});

const NUL_RULE = "must be valid Unicode text without NUL characters";

describe("a path that routes elsewhere than it reads", () => {
  it("is refused with 400 before any body cap or route, and its body is not read", async () => {
    const expected = { error: "Invalid request", details: `path: ${PATH_SEGMENTS_RULE}` };
    for (const path of [
      "/api/agent/../auth/callback/credentials",
      "/api/agent/../trpc/savedReplies.create",
      "/api/panel/imports/../../trpc/savedReplies.create",
      "/api/agent/%2e%2e/trpc/savedReplies.create",
      "/api/agent/.%2E/auth/callback/credentials",
      "/api/agent\\..\\auth/callback/credentials",
      "/api/agent%5c..%5cauth/callback/credentials",
      "/api/auth/../auth/csrf",
    ]) {
      const total = 200 * 1024 * 1024;
      const response = await rawRequest(app.url, path, { total });
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body), path).toEqual(expected);
      expect(response.sent, path).toBeLessThan(total / 4);
    }
    expect((await request(`${app.url}/api/health`)).status).toBe(200);
  });

  it("with doubled slashes is redirected with 308 to the path with one slash, its body not read", async () => {
    for (const [path, location] of [
      ["//api/auth/callback/credentials", "/api/auth/callback/credentials"],
      ["/api//trpc/savedReplies.create", "/api/trpc/savedReplies.create"],
      ["//panel", "/panel"],
    ] as const) {
      const total = 200 * 1024 * 1024;
      const response = await rawRequest(app.url, path, { total });
      expect(response.status, path).toBe(308);
      expect(response.headers.location, path).toBe(location);
      expect(response.sent, path).toBeLessThan(total / 4);
    }
  });
});

describe("next-auth's routes", () => {
  it("answer a JSON sign-in body that does not parse with 400, not 500", async () => {
    const response = await request(`${app.url}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{bad",
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "Invalid request", details: "body: must be valid JSON" });
  });
});

describe("a page's form (server action) posted from another site", () => {
  it("gets 403 with the error body", async () => {
    const response = await request(`${app.url}/invite/some-token`, {
      method: "POST",
      headers: { origin: "https://evil.example", "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" },
      body: '["some-token",{"name":"Eve","password":"correct horse"}]',
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: "Forbidden" });
  });
});

describe("panel queries holding a NUL", () => {
  it("are 400 naming the parameter, and spend none of the hourly exports", async () => {
    const cookie = await signIn(app.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (let attempt = 0; attempt <= INBOX_EXPORTS_PER_HOUR; attempt++) {
      for (const [format, name] of [
        ["csv", "assignee"],
        ["json", "q"],
        ["csv", "agentId"],
      ] as const) {
        const response = await request(`${app.url}/api/panel/conversations/export?format=${format}&${name}=%00`, { headers: { cookie } });
        expect(response.status, `${format} ${name}`).toBe(400);
        expect(response.body).toEqual({ error: "Invalid request", details: `${name}: ${NUL_RULE}` });
      }
    }
    const exported = await fetch(`${app.url}/api/panel/conversations/export?format=csv`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    await exported.text();
    const imported = await request(`${app.url}/api/panel/imports?sourceId=%00&kind=urls`, {
      method: "POST",
      headers: { cookie, origin: app.url },
      body: "https://example.com/a",
    });
    expect(imported.status).toBe(400);
    expect(imported.body).toEqual({ error: "Invalid request", details: `sourceId: ${NUL_RULE}` });
  });
});
