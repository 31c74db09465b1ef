// A method a route does not serve gets 405 with the error body and an Allow header: over HTTP
// through the table of routes, and on the path that serves each route in the app, the server
// entry's direct path for the public routes (the function server.mjs calls, on a real HTTP
// server) and the Next.js route file for the key routes.
import { seed } from "@parley/core/demo";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as keysFile from "../app/api/agents/[agent_id]/http-api-key/route.ts";
import { type AppServer, startAppServer } from "./support/app-server.ts";
import { type DirectServer, startDirectServer } from "./support/direct-server.ts";

/** The methods a Next.js route file can export. */
const NEXT_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Each route, with its route file when Next serves it (null: the direct path serves it). */
const ROUTES = [
  { path: "/api/agent/demo/messages", allow: ["POST"], file: null },
  { path: "/api/agent/demo/help", allow: ["GET", "HEAD"], file: null },
  { path: "/api/agent/demo/help/articles", allow: ["GET", "HEAD"], file: null },
  { path: "/api/agent/demo/help/articles/art-refunds", allow: ["GET", "HEAD"], file: null },
  { path: "/api/agents/demo/http-api-key", allow: ["POST", "DELETE"], file: keysFile },
] as const;

let ctx: TestContext;
let server: AppServer;
let direct: DirectServer;

beforeAll(async () => {
  ctx = await createTestContext();
  await seed(ctx.db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
  server = await startAppServer(ctx);
  direct = await startDirectServer(ctx);
});

afterAll(async () => {
  await direct?.close();
  await server?.close();
  await ctx?.close();
});

async function expectMethodNotAllowed(response: Response, allow: readonly string[], method: string): Promise<void> {
  expect(response.status).toBe(405);
  expect(response.headers.get("allow")).toBe(allow.join(", "));
  expect(response.headers.get("x-request-id")).toBeTruthy();
  if (method === "HEAD") return;
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(await response.json()).toEqual({ error: "Method not allowed" });
}

describe("over HTTP, as the server entry serves the public routes", () => {
  for (const { path, allow } of ROUTES) {
    for (const method of [...NEXT_METHODS, "PROPFIND"].filter((method) => !(allow as readonly string[]).includes(method))) {
      it(`${method} ${path}: 405, Allow: ${allow.join(", ")}`, async () => {
        const response = await fetch(`${server.url}${path}`, { method });
        await expectMethodNotAllowed(response, allow, method);
      });
    }
  }

  it("HEAD on a help route answers as GET, without the body", async () => {
    const get = await fetch(`${server.url}/api/agent/demo/help`);
    const head = await fetch(`${server.url}/api/agent/demo/help`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("cache-control")).toBe("private, max-age=30");
    expect(await head.text()).toBe("");
  });
});

describe("the direct path", () => {
  for (const { path, allow } of ROUTES.filter((route) => route.file === null)) {
    for (const method of [...NEXT_METHODS, "PROPFIND"].filter((method) => !(allow as readonly string[]).includes(method))) {
      it(`${method} ${path}: 405, Allow: ${allow.join(", ")}`, async () => {
        await expectMethodNotAllowed(await fetch(`${direct.url}${path}`, { method }), allow, method);
      });
    }
  }
});

describe("the Next.js route files", () => {
  for (const { path, allow, file } of ROUTES) {
    if (file === null) continue;
    const handlers = file as unknown as Record<string, ((request: Request) => Promise<Response>) | undefined>;
    for (const method of NEXT_METHODS.filter((method) => !(allow as readonly string[]).includes(method))) {
      it(`${method} ${path}: 405, Allow: ${allow.join(", ")}`, async () => {
        // Next serves HEAD with the GET handler when the file has no HEAD of its own.
        const handler = handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined);
        expect(handler, `${method} must be exported, or Next answers it with an empty body`).toBeTypeOf("function");
        await expectMethodNotAllowed(await handler!(new Request(`http://localhost${path}`, { method })), allow, "GET");
      });
    }
  }
});
