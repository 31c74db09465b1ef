// Real responses against the OpenAPI document: every documented status of every public
// route is produced by the real route handlers on a real database (seeded demo data, the real rate
// limiter), and each body validates against the document's schema for that status (ajv, JSON
// Schema 2020-12) and each header against its documented presence and schema. A status the
// document lists but no test produces, or one the routes send but the document lacks, fails.

import { ERRORS, type ErrorBody, type ErrorCode, errorDocsLink } from "@parley/core";
import { generateAgentKey } from "@parley/core/agents";
import { HELP_REQUESTS_PER_MINUTE } from "@parley/core/limits";
import { buildOpenApiDocument, documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";
import type { AdminScope } from "@parley/core/people";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { createDocumentValidator, type DocumentValidator } from "@parley/testing/openapi";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { openApiRoute } from "~/server/routes/openapi.ts";
import * as keysFile from "../app/api/agents/[agent_id]/http-api-key/route.ts";
import { startDirectServer } from "./support/direct-server.ts";
import {
  createHttpApiKey,
  helpArticleRoute,
  helpArticlesRoute,
  helpCollectionsRoute,
  messagesRoute,
  revokeHttpApiKey,
} from "./support/routes.ts";

const MESSAGES = "/api/agent/{agentId}/messages";
const HELP = "/api/agent/{agentId}/help";
const ARTICLES = "/api/agent/{agentId}/help/articles";
const ARTICLE = "/api/agent/{agentId}/help/articles/{itemId}";
const KEY = "/api/agents/{agent_id}/http-api-key";

let ctx: TestContext;
let validator: DocumentValidator;
const exercised = new Set<string>();

beforeAll(async () => {
  ctx = await createMessagingContext();
  validator = createDocumentValidator(buildOpenApiDocument({ appUrl: ctx.appUrl }));
});

afterAll(async () => {
  await ctx?.close();
});

let ipCounter = 0;
function freshIp(): string {
  ipCounter += 1;
  return `203.0.113.${ipCounter}`;
}

/** Validates a response against the document and returns its parsed body. */
async function conforms(response: Response, path: string, method: string): Promise<unknown> {
  const text = await response.text();
  const body = text === "" ? undefined : JSON.parse(text);
  const label = `${method.toUpperCase()} ${path} ${response.status}`;
  expect(validator.response(path, method, response.status), `${label} is documented`).toBeDefined();
  if (validator.response(path, method, response.status)?.content) {
    expect(response.headers.get("content-type"), label).toBe("application/json; charset=utf-8");
  }
  expect(validator.validateBody(path, method, response.status, body).errors, `${label} body ${text.slice(0, 200)}`).toEqual([]);
  expect(validator.validateHeaders(path, method, response.status, response.headers).errors, `${label} headers`).toEqual([]);
  exercised.add(`${method} ${path} ${response.status}`);
  return body;
}

/** The error table's code for an `error` text (the code the Link header points to). */
function codeOf(text: string): ErrorCode {
  const code = (Object.keys(ERRORS) as ErrorCode[]).find((key) => ERRORS[key].message === text);
  if (!code) throw new Error(`no error with the text ${text}`);
  return code;
}

/**
 * An error response: exactly `status`, exactly `expected` as the body, the Link to that error's
 * documentation, and a body and headers valid against the document's response for that status.
 */
async function conformsAsError(response: Response, path: string, method: string, status: number, expected: ErrorBody): Promise<void> {
  const label = `${method.toUpperCase()} ${path}`;
  const code = codeOf(expected.error);
  expect(response.status, label).toBe(status);
  expect(ERRORS[code].status, `${label}: ${code}`).toBe(status);
  expect(response.headers.get("link"), label).toBe(errorDocsLink(code));
  expect(await conforms(response, path, method), label).toEqual(expected);
}

/** A context whose database fails every call: the one way to a 500 that is not a bug. */
function brokenDatabase(): TestContext {
  const prisma = new Proxy(
    {},
    {
      get() {
        throw new Error("database unavailable");
      },
    },
  );
  const fail = async () => {
    throw new Error("database unavailable");
  };
  // Through Prisma and on the driver (the help reads run there).
  return { ...ctx, db: { ...ctx.db, prisma, rows: fail, query: fail } as unknown as TestContext["db"] };
}

describe("send message", () => {
  function send(agentId: string, body: unknown, headers: Record<string, string> = {}, context: TestContext = ctx): Promise<Response> {
    const request = new Request(`${ctx.appUrl}/api/agent/${agentId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-parley-client-ip": "192.0.2.10", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return messagesRoute(context, request, { agentId });
  }
  const as = (agent: TestAgent, headers: Record<string, string> = {}) => ({ authorization: `Bearer ${agent.key}`, ...headers });

  it("200: answered, continued, replayed, handed off", async () => {
    const agent = await createAgentWithKey(ctx);
    const first = (await conforms(
      await send(agent.id, { message: "How do I get a refund?", visitor: { name: "Ada", email: "ada@example.com" } }, as(agent)),
      MESSAGES,
      "post",
    )) as { conversationId: string; richContent: Array<{ type: string }> };
    expect(first.richContent[0]?.type).toBe("articles");

    const unanswered = (await conforms(
      await send(agent.id, { message: "Do you sell quantum toasters?", conversationId: first.conversationId }, as(agent)),
      MESSAGES,
      "post",
    )) as { richContent: Array<{ type: string }> };
    expect(unanswered.richContent[0]?.type).toBe("buttons");

    const replayed = await send(agent.id, { message: "Hello", clientVariables: { plan: "pro" } }, as(agent, { "idempotency-key": "k-1" }));
    await conforms(replayed, MESSAGES, "post");
    const replay = await send(agent.id, { message: "Hello", clientVariables: { plan: "pro" } }, as(agent, { "idempotency-key": "k-1" }));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await conforms(replay, MESSAGES, "post");

    const handoff = (await conforms(
      await send(agent.id, { message: "Can I talk to a human?", conversationId: first.conversationId }, as(agent)),
      MESSAGES,
      "post",
    )) as { handoffRequested: boolean; status: string };
    expect(handoff).toMatchObject({ handoffRequested: true, status: "escalated" });
  });

  it("400 Invalid request", async () => {
    const agent = await createAgentWithKey(ctx);
    for (const [body, details] of [
      [{ message: "" }, "message: must not be empty"],
      ["not json", "body: must be valid JSON"],
      [{ message: "hi", extra: 1 }, "extra: is not a known field"],
    ] as const) {
      await conformsAsError(await send(agent.id, body, as(agent)), MESSAGES, "post", 400, { error: "Invalid request", details });
    }
    await conformsAsError(await send(agent.id, { message: "hi" }, as(agent, { "idempotency-key": "" })), MESSAGES, "post", 400, {
      error: "Invalid request",
      details: "Idempotency-Key: must be 1 to 255 characters",
    });
  });

  it("400 for a body over 64 KiB", async () => {
    const agent = await createAgentWithKey(ctx);
    const body = `{"message":"hi"}${" ".repeat(65_536)}`;
    const tooLarge = { error: "Invalid request", details: "body: must be at most 65536 bytes" };
    await conformsAsError(await send(agent.id, body, as(agent)), MESSAGES, "post", 400, tooLarge);
    const declared = await send(agent.id, body, as(agent, { "content-length": String(body.length) }));
    await conformsAsError(declared, MESSAGES, "post", 400, tooLarge);
  });

  it("401: missing, not configured, invalid", async () => {
    await generateAgentKey(ctx.db, "demo");
    const missing = await send("demo", { message: "hi" });
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="parley"');
    await conformsAsError(missing, MESSAGES, "post", 401, { error: "Missing bearer token" });
    await conformsAsError(await send("demo-nokey", { message: "hi" }, { authorization: "Bearer pk_x" }), MESSAGES, "post", 401, {
      error: "HTTP API key not configured",
    });
    const invalid = await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": freshIp() });
    expect(invalid.headers.get("www-authenticate")).toBe('Bearer realm="parley", error="invalid_token"');
    await conformsAsError(invalid, MESSAGES, "post", 401, { error: "Invalid bearer token" });
  });

  it("402: each quota", async () => {
    const conversations = await createAgentWithKey(ctx, { monthlyConversationLimit: 0 });
    await conformsAsError(await send(conversations.id, { message: "hi" }, as(conversations)), MESSAGES, "post", 402, {
      error: "Monthly conversation quota exhausted",
    });
    const tokens = await createAgentWithKey(ctx, { monthlyTokenLimit: 1 });
    // The first turn is allowed and spends the one token; the next finds the quota exhausted.
    const firstTurn = await send(tokens.id, { message: "hi" }, as(tokens));
    expect(firstTurn.status).toBe(200);
    await conforms(firstTurn, MESSAGES, "post");
    const exhausted = await send(tokens.id, { message: "hi" }, as(tokens));
    expect(exhausted.status).toBe(402);
    const body = await conforms(exhausted, MESSAGES, "post");
    expect(body).toEqual({ error: "Monthly token quota exhausted" });
    expect(exhausted.headers.get("link")).toBe(errorDocsLink("TOKEN_QUOTA_EXHAUSTED"));
    const usage = await createAgentWithKey(ctx, { usageLimit: 1 });
    const usageFirstTurn = await send(usage.id, { message: "hi" }, as(usage));
    expect(usageFirstTurn.status).toBe(200);
    await conforms(usageFirstTurn, MESSAGES, "post");
    await conformsAsError(await send(usage.id, { message: "hi" }, as(usage)), MESSAGES, "post", 402, { error: "Usage limit reached" });
  });

  it("403 and 404", async () => {
    await conformsAsError(await send("demo-disabled", { message: "hi" }), MESSAGES, "post", 403, {
      error: "HTTP API disabled for this agent",
    });
    await conformsAsError(await send("no-such-agent", { message: "hi" }), MESSAGES, "post", 404, { error: "Agent not found" });
    const agent = await createAgentWithKey(ctx);
    const unknownConversation = await send(agent.id, { message: "hi", conversationId: "c-unknown" }, as(agent));
    expect(unknownConversation.status).toBe(404);
    expect(unknownConversation.headers.get("link")).toBe(errorDocsLink("CONVERSATION_NOT_FOUND"));
    const body = await conforms(unknownConversation, MESSAGES, "post");
    expect(body).toEqual({ error: "Conversation not found" });
  });

  it("409 Idempotency-Key reused with a different request", async () => {
    const agent = await createAgentWithKey(ctx);
    const first = await send(agent.id, { message: "hi" }, as(agent, { "idempotency-key": "k-2" }));
    expect(first.status).toBe(200);
    await conforms(first, MESSAGES, "post");
    await conformsAsError(await send(agent.id, { message: "hello" }, as(agent, { "idempotency-key": "k-2" })), MESSAGES, "post", 409, {
      error: "Idempotency-Key reused with a different request",
    });
  });

  it("429: the agent's limit, and the failed-key guard", async () => {
    const agent = await createAgentWithKey(ctx);
    let response: Response;
    do response = await send(agent.id, "{}", as(agent));
    while (response.status === 400);
    expect(response.status).toBe(429);
    expect(response.headers.get("ratelimit-policy")).toBe('"messages";q=30;w=60');
    await conformsAsError(response, MESSAGES, "post", 429, { error: "Rate limit exceeded" });

    const ip = freshIp();
    do response = await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": ip });
    while (response.status === 401);
    expect(response.headers.get("ratelimit-policy")).toBe('"failed-keys";q=10;w=60');
    await conformsAsError(response, MESSAGES, "post", 429, { error: "Rate limit exceeded" });
    const blocked = await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": ip });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("ratelimit-policy")).toBe('"failed-keys";q=10;w=60');
    await conformsAsError(blocked, MESSAGES, "post", 429, { error: "Rate limit exceeded" });
  });

  it("500 Internal error", async () => {
    const agent = await createAgentWithKey(ctx);
    const failing: TestContext = {
      ...ctx,
      engineFor: () => ({
        run: async () => {
          throw new Error("engine down");
        },
      }),
    };
    await conformsAsError(await send(agent.id, { message: "hi" }, as(agent), failing), MESSAGES, "post", 500, { error: "Internal error" });
  });
});

describe("help routes", () => {
  function get(path: string, ip = freshIp(), context: TestContext = ctx): Promise<Response> {
    const request = new Request(`${ctx.appUrl}${path}`, { headers: { "x-parley-client-ip": ip } });
    const url = new URL(request.url);
    const [, , , agentId, , , itemId] = url.pathname.split("/");
    if (itemId) return helpArticleRoute(context, request, { agentId: agentId!, itemId });
    if (url.pathname.endsWith("/articles")) return helpArticlesRoute(context, request, { agentId: agentId! });
    return helpCollectionsRoute(context, request, { agentId: agentId! });
  }

  it("200 for each route", async () => {
    await conforms(await get("/api/agent/demo/help"), HELP, "get");
    await conforms(await get("/api/agent/demo-disabled/help"), HELP, "get");
    for (const query of ["", "?q=refund", "?source=src-billing", "?q=zzzzzz"]) {
      await conforms(await get(`/api/agent/demo/help/articles${query}`), ARTICLES, "get");
    }
    await conforms(await get("/api/agent/demo/help/articles/art-refunds"), ARTICLE, "get");
  });

  it("400 for a search over the limit", async () => {
    await conformsAsError(await get(`/api/agent/demo/help/articles?q=${"x".repeat(101)}`), ARTICLES, "get", 400, {
      error: "Invalid request",
      details: "q: must be at most 100 characters",
    });
  });

  it("404 Not found", async () => {
    const notFound = { error: "Not found" };
    await conformsAsError(await get("/api/agent/demo-inactive/help"), HELP, "get", 404, notFound);
    await conformsAsError(await get("/api/agent/no-such-agent/help/articles"), ARTICLES, "get", 404, notFound);
    await conformsAsError(await get("/api/agent/demo/help/articles/art-start-draft"), ARTICLE, "get", 404, notFound);
  });

  it("429 on each route", async () => {
    freezeClockAtWindowStart(60);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    for (const [path, template] of [
      ["/api/agent/demo/help", HELP],
      ["/api/agent/demo/help/articles", ARTICLES],
      ["/api/agent/demo/help/articles/art-refunds", ARTICLE],
    ] as const) {
      const ip = freshIp();
      // The limit's requests are answered; the next one is refused (a bounded loop, so a route
      // that never limits fails here instead of looping).
      for (let i = 0; i < HELP_REQUESTS_PER_MINUTE; i += 1) expect((await get(path, ip)).status, `${path} #${i + 1}`).toBe(200);
      const response = await get(path, ip);
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      await conformsAsError(response, template, "get", 429, { error: "Rate limit exceeded" });
    }
  });

  it("500 when the database fails", async () => {
    const broken = brokenDatabase();
    const internal = { error: "Internal error" };
    await conformsAsError(await get("/api/agent/demo/help", freshIp(), broken), HELP, "get", 500, internal);
    await conformsAsError(await get("/api/agent/demo/help/articles", freshIp(), broken), ARTICLES, "get", 500, internal);
    await conformsAsError(await get("/api/agent/demo/help/articles/art-refunds", freshIp(), broken), ARTICLE, "get", 500, internal);
  });
});

describe("key routes", () => {
  const admin: AdminScope = { userId: "user-admin", workspaceId: "ws-demo", role: "owner" };
  const stranger: AdminScope = { userId: "someone", workspaceId: "ws-elsewhere", role: "owner" };
  const request = (method: "POST" | "DELETE", headers: Record<string, string> = {}) =>
    new Request(`${ctx.appUrl}/api/agents/demo-quota/http-api-key`, { method, headers: { host: new URL(ctx.appUrl).host, ...headers } });
  const params = { agent_id: "demo-quota" };

  it("201, 204, 401, 403, 404, 500 for both methods", async () => {
    const created = await createHttpApiKey(ctx, request("POST", { origin: ctx.appUrl }), params, admin);
    expect(created.status).toBe(201);
    const body = (await conforms(created, KEY, "post")) as { data: { key: string; last4: string } };
    expect(body.data.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(body.data.last4).toBe(body.data.key.slice(-4));
    const revoked = await revokeHttpApiKey(ctx, request("DELETE", { origin: ctx.appUrl }), params, admin);
    expect(revoked.status).toBe(204);
    expect(await conforms(revoked, KEY, "delete")).toBeUndefined();
    for (const [method, route] of [
      ["post", createHttpApiKey],
      ["delete", revokeHttpApiKey],
    ] as const) {
      const verb = method === "post" ? "POST" : "DELETE";
      await conformsAsError(await route(ctx, request(verb), params, null), KEY, method, 401, { error: "Unauthorized" });
      await conformsAsError(await route(ctx, request(verb, { origin: "https://evil.example" }), params, admin), KEY, method, 403, {
        error: "Forbidden",
      });
      await conformsAsError(await route(ctx, request(verb), params, stranger), KEY, method, 404, { error: "Agent not found" });
      await conformsAsError(await route(brokenDatabase(), request(verb), params, admin), KEY, method, 500, { error: "Internal error" });
    }
  });
});

describe("405 on every path, from the path that serves it", () => {
  // OpenAPI lists responses per operation, so each operation of a path documents the 405 that
  // any other method on that path gets. The public routes are served by the server entry's direct
  // path (here the same function on a real HTTP server), the key routes by their route file.
  it("405 Method not allowed", async () => {
    const direct = await startDirectServer(ctx);
    try {
      const served = [
        [MESSAGES, "/api/agent/demo/messages", "direct path", ["post"]],
        [HELP, "/api/agent/demo/help", "direct path", ["get"]],
        [ARTICLES, "/api/agent/demo/help/articles", "direct path", ["get"]],
        [ARTICLE, "/api/agent/demo/help/articles/art-refunds", "direct path", ["get"]],
        [KEY, "/api/agents/demo/http-api-key", "route file", ["post", "delete"]],
      ] as const;
      for (const [path, url, servedBy, operations] of served) {
        for (const method of operations) {
          const response =
            servedBy === "direct path"
              ? await fetch(`${direct.url}${url}`, { method: "PUT" })
              : await keysFile.PUT(new Request(`${ctx.appUrl}${url}`, { method: "PUT" }));
          await conformsAsError(response, path, method, 405, { error: "Method not allowed" });
        }
      }
    } finally {
      await direct.close();
    }
  });
});

describe("the document itself", () => {
  it("is served at /api/openapi.json for APP_URL", async () => {
    const response = await openApiRoute(new Request(`${ctx.appUrl}/api/openapi.json`), "https://api.example.com");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const document = (await response.json()) as OpenApiDocument;
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(document.servers?.[0]?.variables?.appUrl?.default).toBe("https://api.example.com");
    expect(documentServerUrl(document)).toBe("https://api.example.com");
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument({ appUrl: "https://api.example.com" }))));
  });

  it("every documented response was produced by the routes", () => {
    const documented = Object.entries(validator.document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { responses: Record<string, unknown> }>).flatMap(([method, operation]) =>
        Object.keys(operation.responses).map((status) => `${method} ${path} ${status}`),
      ),
    );
    expect([...exercised].sort()).toEqual(documented.sort());
  });
});
