// Request bodies are capped per path before any route reads them (src/server/body-limit.ts, as
// server.mjs installs it), over a real socket: a Content-Length over the limit is refused at once,
// and a chunked body that grows past it is refused while it streams, the rest never read.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MESSAGE_BODY_MAX_BYTES } from "@parley/core/conversations/limits";
import { AUTH_BODY_MAX_BYTES, bodyLimitForPath, DEFAULT_BODY_MAX_BYTES, TRPC_BODY_MAX_BYTES } from "@parley/core/limits";
import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitRequestBody } from "~/server/body-limit.ts";
import { BodyLimitedRequest } from "~/server/body-limited-request.mjs";
import { AMBIGUOUS_PATH_DETAILS } from "~/server/request-path.mjs";
import { type AppServer, startAppServer } from "./support/app-server.ts";
import { rawRequest } from "./support/raw-request.ts";

let ctx: TestContext;
let server: AppServer;
let agent: TestAgent;

beforeAll(async () => {
  ctx = await createMessagingContext();
  server = await startAppServer(ctx);
  agent = await createAgentWithKey(ctx);
});

afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

/** A JSON message request body of exactly `bytes` bytes (padded with spaces). */
function messageBody(bytes: number): string {
  const json = '{"message":"hi"}';
  return json + " ".repeat(bytes - json.length);
}

describe("the limit of each path (limits.ts)", () => {
  it("auth a few KB, tRPC an article's worth, messages left to their route, everything else a few KB", () => {
    expect(bodyLimitForPath("/api/auth/callback/credentials")).toBe(AUTH_BODY_MAX_BYTES);
    expect(AUTH_BODY_MAX_BYTES).toBe(16 * 1024);
    expect(bodyLimitForPath("/api/trpc/articles.update")).toBe(TRPC_BODY_MAX_BYTES);
    // The largest article, every character a 6-byte JSON escape, still fits.
    expect(TRPC_BODY_MAX_BYTES).toBeGreaterThan(
      JSON.stringify({ 0: { json: { content: "\u0001".repeat(100_000), title: "t".repeat(200) } } }).length,
    );
    // The messages route reads its own body within MESSAGE_BODY_MAX_BYTES (400 in the spec's order).
    expect(bodyLimitForPath("/api/agent/demo/messages")).toBeNull();
    for (const path of ["/panel", "/api/agents/demo/http-api-key", "/help/demo", "/"])
      expect(bodyLimitForPath(path)).toBe(DEFAULT_BODY_MAX_BYTES);
  });

  it("reads a path as routing does: a route's limit is not escaped through dot segments, backslashes or doubled slashes", () => {
    for (const path of [
      "/api/agent/../auth/callback/credentials",
      "/api/agent/%2e%2E/auth/callback/credentials",
      "/api/agent\\..\\auth/callback/credentials",
      "//api/auth/callback/credentials",
      "/api//auth/callback/credentials",
      "http://example.test/api/agent/../auth/callback/credentials",
    ])
      expect(bodyLimitForPath(path), path).toBe(AUTH_BODY_MAX_BYTES);
    for (const path of ["/api/agent/../trpc/savedReplies.create", "/api/panel/imports/../../trpc/x", "/api/agent/.%2e/trpc/x"])
      expect(bodyLimitForPath(path), path).toBe(TRPC_BODY_MAX_BYTES);
  });
});

describe("over a real socket", () => {
  it("refuses a declared 300 MB sign-in body with 413 at once, without reading it", async () => {
    const response = await rawRequest(server.url, "/api/auth/callback/credentials", { declared: 300 * 1024 * 1024, total: 0 });
    expect(response.status).toBe(413);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers.connection).toBe("close");
    expect(response.headers["x-request-id"]).toBeTruthy();
    expect(response.headers.link).toBe('</docs#errors-payload-too-large>; rel="help"');
    expect(JSON.parse(response.body)).toEqual({
      error: "Payload too large",
      details: `body: must be at most ${AUTH_BODY_MAX_BYTES} bytes`,
    });
  });

  it("refuses a chunked tRPC body once it grows past the limit, and reads no more of it", async () => {
    const total = 200 * 1024 * 1024;
    const response = await rawRequest(server.url, "/api/trpc/agents.list", { total });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      error: "Payload too large",
      details: `body: must be at most ${TRPC_BODY_MAX_BYTES} bytes`,
    });
    // The server closed the connection: the client could not send the rest (what it did send
    // sat in socket buffers, a few MB at most).
    expect(response.sent).toBeLessThan(total / 10);
  });

  it("leaves the messages body to its route, which refuses 64 KiB + 1, declared or chunked, with the spec's 400", async () => {
    const expected = { error: "Invalid request", details: `body: must be at most ${MESSAGE_BODY_MAX_BYTES} bytes` };
    const headers = { authorization: `Bearer ${agent.key}` };
    const declared = await rawRequest(server.url, `/api/agent/${agent.id}/messages`, {
      declared: MESSAGE_BODY_MAX_BYTES + 1,
      total: 0,
      headers,
    });
    expect(declared.status).toBe(400);
    expect(JSON.parse(declared.body)).toEqual(expected);
    const chunked = await rawRequest(server.url, `/api/agent/${agent.id}/messages`, { total: MESSAGE_BODY_MAX_BYTES + 1, headers });
    expect(chunked.status).toBe(400);
    expect(JSON.parse(chunked.body)).toEqual(expected);
  });

  it("refuses with 400 every path that routes elsewhere than it reads, before any route, reading no body past the cap", async () => {
    const expected = { error: "Invalid request", details: AMBIGUOUS_PATH_DETAILS };
    for (const path of [
      "/api/agent/../auth/callback/credentials",
      "/api/agent/../trpc/savedReplies.create",
      "/api/panel/imports/../../trpc/savedReplies.create",
      "/api/agent/%2e%2e/trpc/savedReplies.create",
      "/api/agent/.%2E/auth/callback/credentials",
      "/api/agent\\..\\auth/callback/credentials",
      "/api/agent%5c..%5cauth/callback/credentials",
    ]) {
      const total = 50 * 1024 * 1024;
      const chunked = await rawRequest(server.url, path, { total });
      expect(chunked.status, path).toBe(400);
      expect(chunked.headers.connection, path).toBe("close");
      expect(JSON.parse(chunked.body), path).toEqual(expected);
      expect(chunked.sent, path).toBeLessThan(total / 10);
      const declared = await rawRequest(server.url, path, { declared: total, total: 0 });
      expect(declared.status, path).toBe(400);
      expect(JSON.parse(declared.body), path).toEqual(expected);
    }
  });

  it("redirects doubled slashes with 308 to the path with one slash, reading no body", async () => {
    for (const [path, location] of [
      ["//api/auth/callback/credentials", "/api/auth/callback/credentials"],
      ["/api//trpc/savedReplies.create?batch=1", "/api/trpc/savedReplies.create?batch=1"],
    ] as const) {
      const total = 50 * 1024 * 1024;
      const chunked = await rawRequest(server.url, path, { total });
      expect(chunked.status, path).toBe(308);
      expect(chunked.headers.location, path).toBe(location);
      expect(chunked.headers.connection, path).toBe("close");
      expect(chunked.sent, path).toBeLessThan(total / 10);
    }
  });

  it("hands a body within the limit, chunked or declared, whole to the route", async () => {
    const body = messageBody(MESSAGE_BODY_MAX_BYTES);
    for (const declared of [undefined, MESSAGE_BODY_MAX_BYTES]) {
      const response = await fetch(`${server.url}/api/agent/${agent.id}/messages`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${agent.key}`,
          "content-type": "application/json",
          ...(declared ? { "content-length": String(declared) } : {}),
        },
        body: declared ? body : new Blob([body]).stream(),
        duplex: "half",
      } as RequestInit);
      expect(response.status, await response.clone().text()).toBe(200);
      expect(((await response.json()) as { reply: string }).reply).toBeTruthy();
    }
  });
});

describe("when the limit is decided after the body started to arrive", () => {
  // The production server decides only once the app has started, so the first body bytes may
  // come before the limit does. This server decides 200 ms late and answers with the byte count.
  let lateUrl: string;
  let late: ReturnType<typeof createServer>;
  beforeAll(async () => {
    late = createServer({ IncomingMessage: BodyLimitedRequest }, (req, res) => {
      setTimeout(() => {
        limitRequestBody(req, res, async () => {
          let bytes = 0;
          for await (const chunk of req) bytes += (chunk as Buffer).length;
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ bytes }));
        });
      }, 200);
    });
    late.listen(0, "127.0.0.1");
    await once(late, "listening");
    lateUrl = `http://127.0.0.1:${(late.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    late?.closeAllConnections();
    late?.close();
  });

  it("still refuses a chunked body past the limit with 413", async () => {
    const total = 50 * 1024 * 1024;
    const response = await rawRequest(lateUrl, "/api/trpc/agents.list", { total });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      error: "Payload too large",
      details: `body: must be at most ${TRPC_BODY_MAX_BYTES} bytes`,
    });
    expect(response.sent).toBeLessThan(total / 2);
  });

  it("hands bodies far past the socket's buffers whole to the route, held or streamed", async () => {
    for (const [path, size] of [
      ["/api/trpc/articles.update", 300 * 1024],
      ["/api/agent/demo/messages", 60 * 1024],
      ["/api/auth/callback/credentials", 0],
    ] as const) {
      for (const chunked of [true, false]) {
        const response = await fetch(`${lateUrl}${path}`, {
          method: "POST",
          body: chunked ? new Blob(["x".repeat(size)]).stream() : "x".repeat(size),
          duplex: "half",
        } as RequestInit);
        expect(response.status, `${path} chunked=${chunked}`).toBe(200);
        expect(await response.json(), `${path} chunked=${chunked}`).toEqual({ bytes: size });
      }
    }
  });
});
