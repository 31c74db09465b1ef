// @parley/client against the real app: a real HTTP server hands each request to the
// real route handlers on a real database (seeded demo data, the real rate limiter; an LLM agent on
// a local fake OpenAI-compatible server where a provider failure or a slow model is needed).
// Success and continuation, each error class, the help functions, timeouts and cancellation, and
// the retry schedule of spec section 7 under fake timers (setTimeout and Date only: the sockets,
// fetch and the database keep their own clocks), including a lost response retried without a
// second turn. The client's types are asserted equal to the server's schemas.

import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import {
  API_VERSION,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  type HelpArticle,
  type HelpArticleSummary,
  type HelpCollection,
  InternalServerError,
  InvalidRequestError,
  type MessageResponse,
  NotFoundError,
  Parley,
  ParleyError,
  type ParleyOptions,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitError,
  type RetryEvent,
  type RichContentItem,
  type SendMessageParams,
  type SendOptions,
  TimeoutError,
} from "@parley/client";
import { generateAgentKey } from "@parley/core/agents";
import type { MessageResponse as CoreMessageResponse, messageRequestSchema } from "@parley/core/conversations";
import type { RichContentItem as CoreRichContentItem } from "@parley/core/engine";
import type { ArticleSummary, HelpCollection as CoreHelpCollection, helpArticleSchema } from "@parley/core/help";
import { buildOpenApiDocument, API_VERSION as SERVER_API_VERSION } from "@parley/core/openapi";
import type { TestContext } from "@parley/testing/context";
import { errorResponse, type FakeOpenAi, scripts, slowResponse, startFakeOpenAi } from "@parley/testing/fake-openai";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { createDocumentValidator, type DocumentValidator } from "@parley/testing/openapi";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import type { z } from "zod";
import { type AppServer, startAppServer } from "./support/app-server.ts";
import { messagesRoute } from "./support/routes.ts";

const CLIENT_DIR = new URL("../../../packages/client/", import.meta.url);
const MESSAGES = "/api/agent/{agentId}/messages";

let ctx: TestContext;
let fake: FakeOpenAi;
let server: AppServer;
let validator: DocumentValidator;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: "sk-test" });
  ctx = await createMessagingContext({ llm: { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 5_000 } });
  server = await startAppServer(ctx);
  validator = createDocumentValidator(buildOpenApiDocument({ appUrl: ctx.appUrl }));
});

afterAll(async () => {
  await server?.close();
  await ctx?.close();
  await fake?.close();
});

afterEach(() => {
  vi.useRealTimers();
  server.intercept(undefined);
  // Every scripted model response was used by its own test.
  expect(fake.pending()).toBe(0);
});

function client(agent: { id: string; key?: string }, options: Partial<ParleyOptions> = {}): Parley {
  return new Parley({ baseUrl: server.url, agentId: agent.id, apiKey: agent.key, ...options });
}

/** The exchanges of one agent's messages route, from this point on. */
function messagesOf(agentId: string) {
  const from = server.exchanges.length;
  return () => server.exchanges.slice(from).filter((exchange) => exchange.path === `/api/agent/${agentId}/messages`);
}

async function llmAgent(): Promise<TestAgent> {
  const agent = await createAgentWithKey(ctx);
  await ctx.db.prisma.agent.update({ where: { id: agent.id }, data: { engine: "llm" } });
  return agent;
}

/** Awaits a promise's rejection and returns the error (fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function expectParleyError<T extends ParleyError>(
  promise: Promise<unknown>,
  ErrorClass: new (...args: never[]) => T,
  fields: Partial<Pick<ParleyError, "status" | "error" | "details">>,
): Promise<T> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ErrorClass);
  expect(error).toBeInstanceOf(ParleyError);
  expect(error).toMatchObject(fields);
  expect((error as ParleyError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  return error as T;
}

describe("messages.send", () => {
  it("returns the typed reply, continues the conversation, and sends a fresh Idempotency-Key per send", async () => {
    const agent = await createAgentWithKey(ctx);
    const parley = client(agent);
    const exchanges = messagesOf(agent.id);

    const first = await parley.messages.send({
      message: "How do I reset my password?",
      visitor: { name: "Ada" },
      clientVariables: { plan: "pro" },
    });
    expect(validator.validateBody(MESSAGES, "post", 200, first).errors).toEqual([]);
    expect(first).toMatchObject({ handoffRequested: false, status: "active" });
    expect(first.reply).toMatch(/^Hi Ada, /);
    const [item] = first.richContent;
    expect(item?.type).toBe("articles");
    if (item?.type === "articles") expect(item.articles[0]?.id).toBe("art-reset-password");

    const second = await parley.messages.send({ message: "Can I talk to a human?", conversationId: first.conversationId });
    expect(second).toMatchObject({ conversationId: first.conversationId, handoffRequested: true, status: "escalated" });

    const keys = exchanges().map((exchange) => exchange.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
    const stored = await ctx.db.prisma.conversation.findUniqueOrThrow({
      where: { id: first.conversationId },
      select: { messageCount: true },
    });
    expect(stored.messageCount).toBe(4);
  });

  it("uses the caller's Idempotency-Key: the same send twice is one turn", async () => {
    const agent = await createAgentWithKey(ctx);
    const parley = client(agent);
    const first = await parley.messages.send({ message: "Hello" }, { idempotencyKey: "order-42" });
    const again = await parley.messages.send({ message: "Hello" }, { idempotencyKey: "order-42" });
    expect(again).toEqual(first);
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(1);
  });
});

describe("errors: one class per status, never retried", () => {
  it("400 InvalidRequestError with details", async () => {
    const agent = await createAgentWithKey(ctx);
    const exchanges = messagesOf(agent.id);
    await expectParleyError(client(agent).messages.send({ message: "x".repeat(10_001) }), InvalidRequestError, {
      status: 400,
      error: "Invalid request",
      details: "message: must be at most 10000 characters",
    });
    expect(exchanges()).toHaveLength(1);
  });

  it("401 AuthenticationError: a wrong key, a key never generated", async () => {
    const agent = await createAgentWithKey(ctx);
    const exchanges = messagesOf(agent.id);
    await expectParleyError(client({ id: agent.id, key: "pk_wrong" }).messages.send({ message: "hi" }), AuthenticationError, {
      status: 401,
      error: "Invalid bearer token",
    });
    expect(exchanges()).toHaveLength(1);
    await expectParleyError(client({ id: "demo-nokey", key: "pk_x" }).messages.send({ message: "hi" }), AuthenticationError, {
      error: "HTTP API key not configured",
    });
  });

  it("402 QuotaExceededError (alert the operator)", async () => {
    const agent = await createAgentWithKey(ctx, { monthlyConversationLimit: 0 });
    const exchanges = messagesOf(agent.id);
    await expectParleyError(client(agent).messages.send({ message: "hi" }), QuotaExceededError, {
      status: 402,
      error: "Monthly conversation quota exhausted",
    });
    expect(exchanges()).toHaveLength(1);
  });

  it("403 PermissionDeniedError, 404 NotFoundError, 409 ConflictError", async () => {
    await expectParleyError(client({ id: "demo-disabled", key: "pk_x" }).messages.send({ message: "hi" }), PermissionDeniedError, {
      status: 403,
      error: "HTTP API disabled for this agent",
    });
    await expectParleyError(client({ id: "no-such-agent", key: "pk_x" }).messages.send({ message: "hi" }), NotFoundError, {
      status: 404,
      error: "Agent not found",
    });
    const agent = await createAgentWithKey(ctx);
    await expectParleyError(client(agent).messages.send({ message: "hi", conversationId: "c-unknown" }), NotFoundError, {
      error: "Conversation not found",
    });
    await client(agent).messages.send({ message: "hi" }, { idempotencyKey: "k-409" });
    await expectParleyError(client(agent).messages.send({ message: "hello" }, { idempotencyKey: "k-409" }), ConflictError, {
      status: 409,
      error: "Idempotency-Key reused with a different request",
    });
  });

  it("needs an API key to send, but not to read the help centre", async () => {
    await expect(client({ id: "demo" }).messages.send({ message: "hi" })).rejects.toThrow(/apiKey is required/);
    expect((await client({ id: "demo" }).help.collections()).collections.length).toBeGreaterThan(0);
  });

  it("refuses to put the key in a browser", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    try {
      expect(() => client({ id: "demo", key: "pk_x" })).toThrow(/servers only/);
      expect(() => client({ id: "demo" })).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("help", () => {
  it("collections, articles (search, source), one article, and 404", async () => {
    const parley = client({ id: "demo" });
    expect(await parley.help.collections()).toEqual({
      collections: [
        { id: "src-billing", name: "Billing", count: 2 },
        { id: "src-start", name: "Getting started", count: 3 },
      ],
    });
    const { articles } = await parley.help.articles({ q: "refund" });
    expect(articles.map((article) => article.id)).toContain("art-refunds");
    // A visitor's question, best match first.
    const asked = await parley.help.articles({ q: "how do I get my money back", sort: "relevance" });
    expect(asked.articles[0]?.id).toBe("art-refunds");
    const billing = await parley.help.articles({ source: "src-billing" });
    expect(billing.articles.every((article) => article.sourceId === "src-billing")).toBe(true);
    const article = await parley.help.article("art-refunds");
    expect(article).toMatchObject({ id: "art-refunds", sourceName: "Billing", updatedAt: "2026-09-29T13:45:00.000Z" });
    await expectParleyError(parley.help.article("art-start-draft"), NotFoundError, { status: 404, error: "Not found" });
    await expectParleyError(parley.help.articles({ q: "x".repeat(101) }), InvalidRequestError, { status: 400 });
  });
});

describe("timeouts and cancellation", () => {
  // The model is slow; the app reaches it well within the client's timeout, so the scripted
  // response is always used up (and the next test's script is not served a leftover).
  it("a slow answer is a TimeoutError (status 0) after timeoutMs", async () => {
    const agent = await llmAgent();
    fake.enqueue(slowResponse(4_000));
    const started = performance.now();
    const error = await rejection(client(agent, { timeoutMs: 1_500, maxRetries: 0 }).messages.send({ message: "hi" }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, error: "No response within 1500 ms" });
    expect(performance.now() - started).toBeLessThan(3_500);
    expect(fake.pending()).toBe(0);
  });

  it("an AbortSignal cancels a call in flight with the signal's reason", async () => {
    const agent = await llmAgent();
    fake.enqueue(slowResponse(4_000));
    const asked = fake.requests.length;
    const controller = new AbortController();
    const pending = client(agent).messages.send({ message: "hi" }, { signal: controller.signal });
    await until(() => fake.requests.length > asked, "the model to be asked");
    controller.abort();
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
  });

  it("an AbortSignal cancels the wait between retries", async () => {
    const agent = await llmAgent();
    fake.enqueue(errorResponse());
    const controller = new AbortController();
    const retries: RetryEvent[] = [];
    const pending = client(agent, { onRetry: (event) => retries.push(event) }).messages.send(
      { message: "hi" },
      { signal: controller.signal },
    );
    await until(() => retries.length === 1, "the first retry");
    controller.abort(new Error("shutting down"));
    await expect(pending).rejects.toThrow("shutting down");
  });
});

// ---------------------------------------------------------------------------------------------
// Retries under fake timers: only setTimeout/clearTimeout and Date are faked, so the sockets,
// fetch, the database and the test's own polling (setImmediate, performance.now) run for real,
// while every wait of the client and every timestamp the rate limiter sees move only when the
// test advances the clock.

const WINDOW_MS = 60_000;

/** Fake time at `offsetMs` into a fresh rate-limit window (the limiter's windows are aligned to the epoch). */
function useFakeClock(offsetMs: number): void {
  const start = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: start + offsetMs });
}

/** Polls on the real event loop until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Uses up the agent's per-minute limit (requests that stop at body validation, after the limiter). */
async function exhaustLimit(agent: TestAgent): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const request = new Request(`${ctx.appUrl}/api/agent/${agent.id}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json", "x-parley-client-ip": "192.0.2.50" },
      body: "{}",
    });
    expect((await messagesRoute(ctx, request, { agentId: agent.id })).status).toBe(400);
  }
}

describe("retry schedule (fake timers)", () => {
  it("429 then success: waits exactly Retry-After, with the same Idempotency-Key", async () => {
    useFakeClock(50_000);
    const agent = await createAgentWithKey(ctx);
    await exhaustLimit(agent);
    const exchanges = messagesOf(agent.id);
    const retries: RetryEvent[] = [];
    const pending = client(agent, { onRetry: (event) => retries.push(event) }).messages.send({ message: "Hello" });

    await until(() => retries.length === 1, "the 429");
    const [limited] = exchanges();
    expect(limited?.status).toBe(429);
    // 10 s left in the window: Retry-After 11 (just after the window ends).
    expect(retries[0]).toMatchObject({ retry: 1, delayMs: 11_000 });
    expect(retries[0]?.error).toBeInstanceOf(RateLimitError);
    expect((retries[0]!.error as RateLimitError).retryAfterSeconds).toBe(11);

    await vi.advanceTimersByTimeAsync(10_999);
    expect(exchanges()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const reply = await pending;
    expect(reply.status).toBe("active");

    const [first, second] = exchanges();
    expect(second?.status).toBe(200);
    expect(second!.at - first!.at).toBe(11_000);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(retries).toHaveLength(1);
  });

  it("three 429s without Retry-After: backs off 1 s, 2 s, 4 s, then throws RateLimitError", async () => {
    useFakeClock(1_000);
    const agent = await createAgentWithKey(ctx);
    await exhaustLimit(agent);
    // A proxy in front that drops Retry-After: the client falls back to its own schedule.
    server.intercept((response) => {
      if (response.status !== 429) return response;
      const headers = new Headers(response.headers);
      headers.delete("retry-after");
      return new Response(response.body, { status: response.status, headers });
    });
    const exchanges = messagesOf(agent.id);
    const retries: RetryEvent[] = [];
    const pending = rejection(client(agent, { onRetry: (event) => retries.push(event) }).messages.send({ message: "Hello" }));

    for (const [index, delay] of [1_000, 2_000, 4_000].entries()) {
      await until(() => retries.length === index + 1, `retry ${index + 1}`);
      expect(retries[index]?.delayMs).toBe(delay);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(exchanges()).toHaveLength(index + 1);
      await vi.advanceTimersByTimeAsync(1);
    }
    const error = await pending;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, error: "Rate limit exceeded" });

    const seen = exchanges();
    expect(seen.map((exchange) => exchange.status)).toEqual([429, 429, 429, 429]);
    expect(seen.slice(1).map((exchange, i) => exchange.at - seen[i]!.at)).toEqual([1_000, 2_000, 4_000]);
    expect(new Set(seen.map((exchange) => exchange.idempotencyKey)).size).toBe(1);
    expect(retries).toHaveLength(3);
  });

  it("never retries 400, 401, 402, 403, 404 or 409: one request, no wait", async () => {
    useFakeClock(5_000);
    const agent = await createAgentWithKey(ctx);
    const quota = await createAgentWithKey(ctx, { monthlyConversationLimit: 0 });
    const onRetry = vi.fn();
    await client(agent).messages.send({ message: "hi" }, { idempotencyKey: "k-frozen" });
    const cases: Array<[Parley, SendMessageParams, SendOptions, new (...args: never[]) => ParleyError]> = [
      [client(agent, { onRetry }), { message: "" }, {}, InvalidRequestError],
      [client({ id: agent.id, key: "pk_wrong" }, { onRetry }), { message: "hi" }, {}, AuthenticationError],
      [client(quota, { onRetry }), { message: "hi" }, {}, QuotaExceededError],
      [client({ id: "demo-disabled", key: "pk_x" }, { onRetry }), { message: "hi" }, {}, PermissionDeniedError],
      [client(agent, { onRetry }), { message: "hi", conversationId: "c-unknown" }, {}, NotFoundError],
      [client(agent, { onRetry }), { message: "hello" }, { idempotencyKey: "k-frozen" }, ConflictError],
    ];
    for (const [parley, params, options, ErrorClass] of cases) {
      const count = server.exchanges.length;
      // With the clock frozen, any wait would hang here.
      expect(await rejection(parley.messages.send(params, options))).toBeInstanceOf(ErrorClass);
      expect(server.exchanges.length - count).toBe(1);
    }
    expect(onRetry).not.toHaveBeenCalled();
  });

  it("a 500 is retried after 1 s with the same Idempotency-Key, and only the successful attempt is a turn", async () => {
    useFakeClock(5_000);
    const agent = await llmAgent();
    fake.enqueue(errorResponse(), ...scripts.searchThenAnswer("refund", "Refunds take 5 to 10 days."));
    const exchanges = messagesOf(agent.id);
    const retries: RetryEvent[] = [];
    const pending = client(agent, { onRetry: (event) => retries.push(event) }).messages.send({ message: "How long do refunds take?" });

    await until(() => retries.length === 1, "the 500");
    expect(retries[0]).toMatchObject({ retry: 1, delayMs: 1_000 });
    expect(retries[0]?.error).toBeInstanceOf(InternalServerError);
    expect(retries[0]?.error).toMatchObject({ status: 500, error: "Internal error" });
    await vi.advanceTimersByTimeAsync(1_000);
    const reply = await pending;
    expect(reply.reply).toBe("Refunds take 5 to 10 days.");

    const [first, second] = exchanges();
    expect([first?.status, second?.status]).toEqual([500, 200]);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(await ctx.db.prisma.message.count({ where: { conversation: { agentId: agent.id } } })).toBe(2);
  });

  it("a response lost on the way back is retried with the same key: the app replays it, no second turn", async () => {
    useFakeClock(5_000);
    const agent = await createAgentWithKey(ctx);
    let dropped = false;
    server.intercept((response) => {
      if (dropped) return response;
      dropped = true;
      return "drop";
    });
    const exchanges = messagesOf(agent.id);
    const retries: RetryEvent[] = [];
    const pending = client(agent, { onRetry: (event) => retries.push(event) }).messages.send({ message: "How do I get a refund?" });

    await until(() => retries.length === 1, "the lost response");
    expect(retries[0]?.error).toBeInstanceOf(ConnectionError);
    expect(retries[0]).toMatchObject({ delayMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    const reply = await pending;

    const [first, second] = exchanges();
    expect([first?.status, second?.status]).toEqual([200, 200]);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    const conversations = await ctx.db.prisma.conversation.findMany({
      where: { agentId: agent.id },
      select: { id: true, messageCount: true },
    });
    expect(conversations).toEqual([{ id: reply.conversationId, messageCount: 2 }]);
  });
});

describe("the client package", () => {
  it("has no runtime dependency and imports nothing outside itself", () => {
    const manifest = JSON.parse(readFileSync(new URL("package.json", CLIENT_DIR), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "@parley/client", type: "module", exports: { ".": "./src/index.ts" } });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.scripts).toMatchObject({ typecheck: expect.any(String) });
    for (const file of readdirSync(new URL("src/", CLIENT_DIR))) {
      const source = readFileSync(new URL(`src/${file}`, CLIENT_DIR), "utf8");
      for (const [, specifier] of source.matchAll(/\bfrom\s+"([^"]+)"/g)) expect(specifier, file).toMatch(/^\.\//);
    }
  });

  it("speaks the server's API version", () => {
    expect(API_VERSION).toBe(SERVER_API_VERSION);
  });

  it("its types are the server's", () => {
    expectTypeOf<MessageResponse>().toEqualTypeOf<CoreMessageResponse>();
    expectTypeOf<RichContentItem>().toEqualTypeOf<CoreRichContentItem>();
    expectTypeOf<SendMessageParams>().toEqualTypeOf<z.input<typeof messageRequestSchema>>();
    expectTypeOf<HelpCollection>().toEqualTypeOf<CoreHelpCollection>();
    expectTypeOf<HelpArticleSummary>().toEqualTypeOf<ArticleSummary>();
    expectTypeOf<HelpArticle>().toEqualTypeOf<z.output<typeof helpArticleSchema>>();
  });

  it("the example sends a message and continues the conversation", async () => {
    const { key } = await generateAgentKey(ctx.db, "demo");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        new URL("../../../node_modules/tsx/dist/cli.mjs", import.meta.url).pathname,
        new URL("examples/send-message.ts", CLIENT_DIR).pathname,
      ],
      { env: { ...process.env, PARLEY_BASE_URL: server.url, PARLEY_AGENT_ID: "demo", PARLEY_API_KEY: key }, timeout: 30_000 },
    );
    expect(stdout).toMatch(/^you: {3}How do I reset my password\?\nagent: Hi Ada, from “How to reset your password”/);
    expect(stdout).toMatch(/conversation \S+: escalated \(a person was asked for\)\n$/);
  });
});
