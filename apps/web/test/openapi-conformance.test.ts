// Real responses against the OpenAPI document: every documented status of every public
// route is produced by the real route handlers on a real database (seeded demo data, the real rate
// limiter), and each body validates against the document's schema for that status (ajv, JSON
// Schema 2020-12) and each header against its documented presence and schema. A status the
// document lists but no test produces, or one the routes send but the document lacks, fails.

import { generateAgentKey } from "@parley/core/agents";
import { buildOpenApiDocument, documentServerUrl, type OpenApiDocument } from "@parley/core/openapi";
import type { AdminScope } from "@parley/core/people";
import type { TestContext } from "@parley/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiRoute } from "~/server/routes/openapi.ts";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "../../../packages/core/test/support/messaging.ts";
import { createDocumentValidator, type DocumentValidator } from "../../../packages/core/test/support/openapi.ts";
import * as helpArticleFile from "../app/api/agent/[agentId]/help/articles/[itemId]/route.ts";
import * as helpArticlesFile from "../app/api/agent/[agentId]/help/articles/route.ts";
import * as helpFile from "../app/api/agent/[agentId]/help/route.ts";
import * as messagesFile from "../app/api/agent/[agentId]/messages/route.ts";
import * as keysFile from "../app/api/agents/[agent_id]/http-api-key/route.ts";
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
    for (const body of [{ message: "" }, "not json", { message: "hi", extra: 1 }]) {
      await conforms(await send(agent.id, body, as(agent)), MESSAGES, "post");
    }
    await conforms(await send(agent.id, { message: "hi" }, as(agent, { "idempotency-key": "" })), MESSAGES, "post");
  });

  it("400 for a body over 64 KiB", async () => {
    const agent = await createAgentWithKey(ctx);
    const body = `{"message":"hi"}${" ".repeat(65_536)}`;
    await conforms(await send(agent.id, body, as(agent)), MESSAGES, "post");
    await conforms(await send(agent.id, body, as(agent, { "content-length": String(body.length) })), MESSAGES, "post");
  });

  it("401: missing, not configured, invalid", async () => {
    await generateAgentKey(ctx.db, "demo");
    await conforms(await send("demo", { message: "hi" }), MESSAGES, "post");
    await conforms(await send("demo-nokey", { message: "hi" }, { authorization: "Bearer pk_x" }), MESSAGES, "post");
    await conforms(
      await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": freshIp() }),
      MESSAGES,
      "post",
    );
  });

  it("402: each quota", async () => {
    const conversations = await createAgentWithKey(ctx, { monthlyConversationLimit: 0 });
    await conforms(await send(conversations.id, { message: "hi" }, as(conversations)), MESSAGES, "post");
    const tokens = await createAgentWithKey(ctx, { monthlyTokenLimit: 1 });
    await conforms(await send(tokens.id, { message: "hi" }, as(tokens)), MESSAGES, "post");
    const body = await conforms(await send(tokens.id, { message: "hi" }, as(tokens)), MESSAGES, "post");
    expect(body).toEqual({ error: "Monthly token quota exhausted" });
  });

  it("403 and 404", async () => {
    await conforms(await send("demo-disabled", { message: "hi" }), MESSAGES, "post");
    await conforms(await send("no-such-agent", { message: "hi" }), MESSAGES, "post");
    const agent = await createAgentWithKey(ctx);
    const body = await conforms(await send(agent.id, { message: "hi", conversationId: "c-unknown" }, as(agent)), MESSAGES, "post");
    expect(body).toEqual({ error: "Conversation not found" });
  });

  it("409 Idempotency-Key reused with a different request", async () => {
    const agent = await createAgentWithKey(ctx);
    await conforms(await send(agent.id, { message: "hi" }, as(agent, { "idempotency-key": "k-2" })), MESSAGES, "post");
    await conforms(await send(agent.id, { message: "hello" }, as(agent, { "idempotency-key": "k-2" })), MESSAGES, "post");
  });

  it("429: the agent's limit, and the failed-key guard", async () => {
    const agent = await createAgentWithKey(ctx);
    let response: Response;
    do response = await send(agent.id, "{}", as(agent));
    while (response.status === 400);
    expect(response.status).toBe(429);
    await conforms(response, MESSAGES, "post");

    const ip = freshIp();
    do response = await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": ip });
    while (response.status === 401);
    expect(response.headers.get("ratelimit-policy")).toBe('"failed-keys";q=10;w=60');
    await conforms(response, MESSAGES, "post");
    const blocked = await send("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": ip });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("ratelimit-policy")).toBe('"failed-keys";q=10;w=60');
    await conforms(blocked, MESSAGES, "post");
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
    await conforms(await send(agent.id, { message: "hi" }, as(agent), failing), MESSAGES, "post");
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
    await conforms(await get(`/api/agent/demo/help/articles?q=${"x".repeat(101)}`), ARTICLES, "get");
  });

  it("404 Not found", async () => {
    await conforms(await get("/api/agent/demo-inactive/help"), HELP, "get");
    await conforms(await get("/api/agent/no-such-agent/help/articles"), ARTICLES, "get");
    await conforms(await get("/api/agent/demo/help/articles/art-start-draft"), ARTICLE, "get");
  });

  it("429 on each route", async () => {
    for (const [path, template] of [
      ["/api/agent/demo/help", HELP],
      ["/api/agent/demo/help/articles", ARTICLES],
      ["/api/agent/demo/help/articles/art-refunds", ARTICLE],
    ] as const) {
      const ip = freshIp();
      let response: Response;
      do response = await get(path, ip);
      while (response.status === 200);
      expect(response.status).toBe(429);
      await conforms(response, template, "get");
    }
  });

  it("500 when the database fails", async () => {
    const broken = brokenDatabase();
    await conforms(await get("/api/agent/demo/help", freshIp(), broken), HELP, "get");
    await conforms(await get("/api/agent/demo/help/articles", freshIp(), broken), ARTICLES, "get");
    await conforms(await get("/api/agent/demo/help/articles/art-refunds", freshIp(), broken), ARTICLE, "get");
  });
});

describe("key routes", () => {
  const admin: AdminScope = { userId: "user-admin", workspaceId: "ws-demo", role: "owner" };
  const stranger: AdminScope = { userId: "someone", workspaceId: "ws-elsewhere", role: "owner" };
  const request = (method: "POST" | "DELETE", headers: Record<string, string> = {}) =>
    new Request(`${ctx.appUrl}/api/agents/demo-quota/http-api-key`, { method, headers: { host: new URL(ctx.appUrl).host, ...headers } });
  const params = { agent_id: "demo-quota" };

  it("201, 204, 401, 403, 404, 500 for both methods", async () => {
    await conforms(await createHttpApiKey(ctx, request("POST", { origin: ctx.appUrl }), params, admin), KEY, "post");
    await conforms(await revokeHttpApiKey(ctx, request("DELETE", { origin: ctx.appUrl }), params, admin), KEY, "delete");
    for (const [method, route] of [
      ["post", createHttpApiKey],
      ["delete", revokeHttpApiKey],
    ] as const) {
      const verb = method === "post" ? "POST" : "DELETE";
      await conforms(await route(ctx, request(verb), params, null), KEY, method);
      await conforms(await route(ctx, request(verb, { origin: "https://evil.example" }), params, admin), KEY, method);
      await conforms(await route(ctx, request(verb), params, stranger), KEY, method);
      await conforms(await route(brokenDatabase(), request(verb), params, admin), KEY, method);
    }
  });
});

describe("405 on every path, from its route file", () => {
  // OpenAPI lists responses per operation, so each operation of a path documents the 405 that
  // any other method on that path gets.
  it("405 Method not allowed", async () => {
    const files = [
      [MESSAGES, "/api/agent/demo/messages", messagesFile, ["post"]],
      [HELP, "/api/agent/demo/help", helpFile, ["get"]],
      [ARTICLES, "/api/agent/demo/help/articles", helpArticlesFile, ["get"]],
      [ARTICLE, "/api/agent/demo/help/articles/art-refunds", helpArticleFile, ["get"]],
      [KEY, "/api/agents/demo/http-api-key", keysFile, ["post", "delete"]],
    ] as const;
    for (const [path, url, file, operations] of files) {
      const handler = "PUT" in file ? file.PUT : undefined;
      if (!handler) throw new Error(`${path}: no PUT handler`);
      for (const method of operations) await conforms(await handler(new Request(`${ctx.appUrl}${url}`, { method: "PUT" })), path, method);
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
