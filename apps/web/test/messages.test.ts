// POST /api/agent/{agentId}/messages through the route handler with real Requests: every
// row of the spec's error table with its exact text and headers, the order of the checks, the
// body boundaries over HTTP, key rotation, the per-agent rate limit (on Redis when REDIS_URL is
// set) and the failed-key guard, X-Request-Id, and the exact 200 shape.
import { ERRORS, type ErrorCode, errorDocsLink } from "@parley/core";
import { generateAgentKey, revokeAgentKey } from "@parley/core/agents";
import { renderMessageHtml } from "@parley/core/markdown";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { messagesRoute } from "./support/routes.ts";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createMessagingContext();
});

afterAll(async () => {
  await ctx.close();
});

let ipCounter = 0;
/** A client IP of its own, so the per-IP failed-key guard of one test does not touch another. */
function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

function request(agentId: string, body: unknown, headers: Record<string, string | undefined> = {}): Request {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries({ "content-type": "application/json", "x-parley-client-ip": "192.0.2.1", ...headers })) {
    if (value !== undefined) all[name] = value;
  }
  return new Request(`http://localhost/api/agent/${encodeURIComponent(agentId)}/messages`, {
    method: "POST",
    headers: all,
    body: typeof body === "string" || body instanceof Blob ? body : JSON.stringify(body),
  });
}

function post(agentId: string, body: unknown, headers: Record<string, string | undefined> = {}): Promise<Response> {
  return messagesRoute(ctx, request(agentId, body, headers), { agentId });
}

function postAs(agent: TestAgent, body: unknown, headers: Record<string, string | undefined> = {}): Promise<Response> {
  return post(agent.id, body, { authorization: `Bearer ${agent.key}`, ...headers });
}

/** The error's code in the error table, by its `error` text. */
function codeOf(text: string | undefined): ErrorCode {
  const code = (Object.keys(ERRORS) as ErrorCode[]).find((key) => ERRORS[key].message === text);
  if (!code) throw new Error(`no error with the text ${text}`);
  return code;
}

/** The status, the exact body, and the headers every error has: X-Request-Id and the Link to its documentation. */
async function expectError(response: Response, status: number, body: Record<string, string>): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(await response.json()).toEqual(body);
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(response.headers.get("link")).toBe(errorDocsLink(codeOf(body.error)));
}

function expectRateLimitHeaders(response: Response): void {
  expect(response.headers.get("ratelimit-policy")).toBe('"messages";q=30;w=60');
  expect(response.headers.get("ratelimit")).toMatch(/^"messages";r=\d+;t=\d+$/);
}

function expectNoRateLimitHeaders(response: Response): void {
  expect(response.headers.get("ratelimit-policy")).toBeNull();
  expect(response.headers.get("ratelimit")).toBeNull();
}

describe("success", () => {
  it("answers 200 with exactly the seven fields, naming the demo article", async () => {
    const { key } = await generateAgentKey(ctx.db, "demo");
    const response = await post(
      "demo",
      { message: "How do I reset my password?", visitor: { name: "Ada" } },
      { authorization: `Bearer ${key}` },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expectRateLimitHeaders(response);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual([
      "conversationId",
      "handoffRequested",
      "reply",
      "richContent",
      "status",
      "tokenUsage",
      "toolCalls",
    ]);
    expect(body).toMatchObject({
      conversationId: expect.any(String),
      reply: expect.stringMatching(/^Hi Ada, from “How to reset your password”:\n\n1\. Go to the sign-in page /),
      tokenUsage: expect.any(Number),
      toolCalls: [{ name: "search_knowledge_base", args: { query: "How do I reset my password?" } }],
      handoffRequested: false,
      status: "active",
    });
    expect(body.richContent[0].articles[0]).toEqual({
      id: "art-reset-password",
      title: "How to reset your password",
      url: `${ctx.appUrl}/help/demo/articles/reset-password`,
    });
  });

  it("keeps an article's numbered steps and bulleted list in `reply`, as Markdown with no HTML", async () => {
    // An agent whose only source holds one article: five numbered steps (emphasis, a link, a
    // literal tag written in the article as text), a paragraph, and a bulleted list.
    const source = await ctx.db.prisma.source.create({ data: { workspaceId: "ws-demo", name: "Exports help" } });
    await ctx.db.prisma.article.create({
      data: {
        sourceId: source.id,
        title: "Exporting your workspace (CSV & <JSON>)",
        published: true,
        publishedAt: new Date(),
        content: [
          "Exports run in the background and arrive by email.",
          "",
          "## Export your workspace",
          "",
          "1. Open **Settings**.",
          "2. Choose **Data → Export**.",
          "3. Pick CSV or JSON (the \\<table\\> tag is not supported).",
          "4. Select [Start export](https://help.example.com/start).",
          "5. Open the link in the email we send you",
          "",
          "The link works for 7 days.",
          "",
          "## What an export contains",
          "",
          "- Every project and its tasks",
          "- Comments and attachments",
          "- Invoices <img src=x onerror=alert(1)>",
        ].join("\n"),
      },
    });
    const agent = await createAgentWithKey(ctx, { sources: [source.id] });

    const steps = await postAs(agent, { message: "How do I export my workspace?" });
    expect(steps.status).toBe(200);
    const stepsBody = await steps.json();
    expect(stepsBody.reply).toBe(
      [
        // The title too is written to read as itself.
        "From “Exporting your workspace (CSV & \\<JSON>)”:",
        "",
        "1. Open Settings.",
        "2. Choose Data → Export.",
        "3. Pick CSV or JSON (the \\<table> tag is not supported).",
        "4. Select Start export.",
        "5. Open the link in the email we send you",
        "",
        "The link works for 7 days.",
        // The section is short: the article's next-ranked section follows, its list a bulleted one.
        "",
        "- Every project and its tasks",
        "- Comments and attachments",
        // The article's raw HTML is left out, not written into the reply.
        "- Invoices",
      ].join("\n"),
    );
    // The article stays a card.
    expect(stepsBody.richContent[0]).toEqual({
      type: "articles",
      articles: [{ id: expect.any(String), title: "Exporting your workspace (CSV & <JSON>)", url: expect.stringContaining("/help/") }],
    });

    // What the widget, the panel's test chat and the transcript show of it (the one renderer):
    // the steps an ordered list, the points a bulleted one, the tag written in the article as text.
    expect(renderMessageHtml(stepsBody.reply)).toBe(
      [
        "<p>From “Exporting your workspace (CSV &amp; &lt;JSON&gt;)”:</p>",
        "<ol>",
        "<li>Open Settings.</li>",
        "<li>Choose Data → Export.</li>",
        "<li>Pick CSV or JSON (the &lt;table&gt; tag is not supported).</li>",
        "<li>Select Start export.</li>",
        "<li>Open the link in the email we send you</li>",
        "</ol>",
        "<p>The link works for 7 days.</p>",
        "<ul>",
        "<li>Every project and its tasks</li>",
        "<li>Comments and attachments</li>",
        "<li>Invoices</li>",
        "</ul>",
        "",
      ].join("\n"),
    );
  });

  it("echoes a caller's X-Request-Id", async () => {
    const response = await post("nope", { message: "hi" }, { "x-request-id": "req-123" });
    expect(response.headers.get("x-request-id")).toBe("req-123");
  });
});

describe("the spec's error table, in the order of the checks", () => {
  it("404 Agent not found: unknown or inactive agent (before any auth)", async () => {
    for (const agentId of ["no-such-agent", "demo-inactive"]) {
      const response = await post(agentId, { message: "hi" }, { authorization: "Bearer pk_whatever" });
      await expectError(response, 404, { error: "Agent not found" });
      expectNoRateLimitHeaders(response);
    }
  });

  it("403 HTTP API disabled for this agent, even without a token", async () => {
    await expectError(await post("demo-disabled", { message: "hi" }), 403, { error: "HTTP API disabled for this agent" });
    await expectError(await post("demo-disabled", { message: "hi" }, { authorization: "Bearer x" }), 403, {
      error: "HTTP API disabled for this agent",
    });
  });

  it("401 Missing bearer token: absent, empty or not `Bearer <token>`", async () => {
    const { key } = await generateAgentKey(ctx.db, "demo");
    for (const authorization of [undefined, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", key, `Token ${key}`]) {
      const response = await post("demo", { message: "hi" }, { authorization });
      await expectError(response, 401, { error: "Missing bearer token" });
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expectNoRateLimitHeaders(response);
    }
  });

  it("401 HTTP API key not configured: enabled, never generated", async () => {
    const response = await post("demo-nokey", { message: "hi" }, { authorization: "Bearer pk_x" });
    await expectError(response, 401, { error: "HTTP API key not configured" });
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });

  it("401 Invalid bearer token: a wrong key", async () => {
    const response = await post("demo", { message: "hi" }, { authorization: "Bearer pk_wrong", "x-parley-client-ip": freshIp() });
    await expectError(response, 401, { error: "Invalid bearer token" });
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="parley", error="invalid_token"');
    expect(response.headers.get("link")).toBe('</docs#errors-invalid-bearer-token>; rel="help"');
  });

  it("a key works only for its own agent", async () => {
    const a = await createAgentWithKey(ctx);
    const b = await createAgentWithKey(ctx);
    await expectError(await post(a.id, { message: "hi" }, { authorization: `Bearer ${b.key}`, "x-parley-client-ip": freshIp() }), 401, {
      error: "Invalid bearer token",
    });
  });

  it("400 Invalid request with the field and rule, and the RateLimit headers", async () => {
    const agent = await createAgentWithKey(ctx);
    const response = await postAs(agent, { message: "" });
    await expectError(response, 400, { error: "Invalid request", details: "message: must not be empty" });
    expectRateLimitHeaders(response);
  });

  it("404 Conversation not found: unknown, or another agent's", async () => {
    const agent = await createAgentWithKey(ctx);
    const other = await createAgentWithKey(ctx);
    const theirs = await (await postAs(other, { message: "hi" })).json();
    for (const conversationId of ["c-unknown", theirs.conversationId]) {
      const response = await postAs(agent, { message: "hi", conversationId });
      await expectError(response, 404, { error: "Conversation not found" });
      expectRateLimitHeaders(response);
    }
    // The owner continues it.
    const mine = await postAs(other, { message: "hi again", conversationId: theirs.conversationId });
    expect(mine.status).toBe(200);
    expect((await mine.json()).conversationId).toBe(theirs.conversationId);
  });

  it("402 with the quota's text", async () => {
    const conversations = await createAgentWithKey(ctx, { monthlyConversationLimit: 0 });
    const conversationsResponse = await postAs(conversations, { message: "hi" });
    await expectError(conversationsResponse, 402, { error: "Monthly conversation quota exhausted" });
    expectRateLimitHeaders(conversationsResponse);

    const tokens = await createAgentWithKey(ctx, { monthlyTokenLimit: 1 });
    expect((await postAs(tokens, { message: "hi" })).status).toBe(200);
    await expectError(await postAs(tokens, { message: "hi" }), 402, { error: "Monthly token quota exhausted" });

    const usage = await createAgentWithKey(ctx, { usageLimit: 1 });
    expect((await postAs(usage, { message: "hi" })).status).toBe(200);
    await expectError(await postAs(usage, { message: "hi" }), 402, { error: "Usage limit reached" });
  });

  it("409 for an Idempotency-Key reused with another body; a replay otherwise", async () => {
    const agent = await createAgentWithKey(ctx);
    const first = await postAs(agent, { message: "hi" }, { "idempotency-key": "abc" });
    const firstBody = await first.json();
    const replay = await postAs(agent, { message: "hi" }, { "idempotency-key": "abc" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const replayBody = await replay.json();
    expect(replayBody).toEqual(firstBody);
    expect(Object.keys(replayBody)).toEqual(Object.keys(firstBody));
    const conflict = await postAs(agent, { message: "hello" }, { "idempotency-key": "abc" });
    await expectError(conflict, 409, { error: "Idempotency-Key reused with a different request" });
    expectRateLimitHeaders(conflict);
  });

  it("500 Internal error when the engine fails, with nothing stored and no internals shown", async () => {
    const agent = await createAgentWithKey(ctx);
    const broken: TestContext = {
      ...ctx,
      engineFor: () => ({
        run: async () => {
          throw new Error("secret stack detail");
        },
      }),
    };
    const response = await messagesRoute(broken, request(agent.id, { message: "hi" }, { authorization: `Bearer ${agent.key}` }), {
      agentId: agent.id,
    });
    await expectError(response, 500, { error: "Internal error" });
    expect(response.headers.get("link")).toBe('</docs#errors-internal>; rel="help"');
    expectRateLimitHeaders(response);
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await ctx.db.prisma.usageMonth.count({ where: { agentId: agent.id } })).toBe(0);
  });
});

describe("body validation over HTTP (exact boundaries pass)", () => {
  const cases: Array<[string, unknown, Record<string, string | undefined>, string | null]> = [
    ["message of 10,000 characters", { message: "x".repeat(10_000) }, {}, null],
    ["message of 10,001 characters", { message: "x".repeat(10_001) }, {}, "message: must be at most 10000 characters"],
    ["missing message", { visitor: {} }, {}, "message: is required"],
    ["message not a string", { message: ["hi"] }, {}, "message: must be a string"],
    ["conversationId not a string", { message: "hi", conversationId: 7 }, {}, "conversationId: must be a string"],
    [
      "50 clientVariables",
      { message: "hi", clientVariables: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"])) },
      {},
      null,
    ],
    [
      "51 clientVariables",
      { message: "hi", clientVariables: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
      {},
      "clientVariables: must have at most 50 keys",
    ],
    ["a value of 1,024 characters", { message: "hi", clientVariables: { v: "x".repeat(1024) } }, {}, null],
    [
      "a value of 1,025 characters",
      { message: "hi", clientVariables: { v: "x".repeat(1025) } },
      {},
      "clientVariables.v: must be at most 1024 characters",
    ],
    ["phone with +", { message: "hi", visitor: { phone: "+447700900123" } }, {}, null],
    [
      "phone without +",
      { message: "hi", visitor: { phone: "447700900123" } },
      {},
      "visitor.phone: must be in international format: + then 7 to 15 digits, e.g. +14155550100",
    ],
    ["email not an email", { message: "hi", visitor: { email: "nope" } }, {}, "visitor.email: must be an email address"],
    ["name over 200", { message: "hi", visitor: { name: "n".repeat(201) } }, {}, "visitor.name: must be at most 200 characters"],
    ["visitor not an object", { message: "hi", visitor: "Ada" }, {}, "visitor: must be an object"],
    ["unknown field", { message: "hi", userId: "u1" }, {}, "userId: is not a known field"],
    ["not JSON", "message=hi", {}, "body: must be valid JSON"],
    ["wrong Content-Type", { message: "hi" }, { "content-type": "text/plain" }, "Content-Type: must be application/json"],
    [
      "no Content-Type",
      new Blob([JSON.stringify({ message: "hi" })]),
      { "content-type": undefined },
      "Content-Type: must be application/json",
    ],
    ["charset parameter", { message: "hi" }, { "content-type": "application/json; charset=utf-8" }, null],
    ["a body of exactly 64 KiB", `{"message":"hi"}${" ".repeat(65_536 - 16)}`, {}, null],
    ["a body of 64 KiB + 1", `{"message":"hi"}${" ".repeat(65_536 - 15)}`, {}, "body: must be at most 65536 bytes"],
  ];

  let agent: TestAgent;
  beforeAll(async () => {
    agent = await createAgentWithKey(ctx);
  });

  it.each(cases)("%s", async (_name, body, headers, details) => {
    const response = await postAs(agent, body, headers);
    if (details === null) {
      expect(response.status).toBe(200);
    } else {
      await expectError(response, 400, { error: "Invalid request", details });
    }
    expectRateLimitHeaders(response);
  });
});

describe("body size", () => {
  it("refuses a body of 64 KiB + 1 with the spec's 400, declared or not, after the key checks", async () => {
    const agent = await createAgentWithKey(ctx);
    const body = `{"message":"hi"}${" ".repeat(65_536 - 15)}`;
    const expected = { error: "Invalid request", details: "body: must be at most 65536 bytes" };
    // Counted while reading, and refused from the declared length alone.
    await expectError(await postAs(agent, body), 400, expected);
    await expectError(await postAs(agent, body, { "content-length": String(65_537) }), 400, expected);
    // The key is checked first: an oversized body without one is still a 401.
    await expectError(await post(agent.id, body, { "content-length": String(65_537) }), 401, { error: "Missing bearer token" });
  });
});

describe("key rotation and revocation", () => {
  it("the old key fails on the very next request; a revoked key is 'not configured'", async () => {
    const agent = await createAgentWithKey(ctx);
    const ip = freshIp();
    expect((await postAs(agent, { message: "hi" }, { "x-parley-client-ip": ip })).status).toBe(200);
    const { key: rotated } = await generateAgentKey(ctx.db, agent.id);
    await expectError(await postAs(agent, { message: "hi" }, { "x-parley-client-ip": ip }), 401, { error: "Invalid bearer token" });
    expect((await post(agent.id, { message: "hi" }, { authorization: `Bearer ${rotated}`, "x-parley-client-ip": ip })).status).toBe(200);
    await revokeAgentKey(ctx.db, agent.id);
    await expectError(await post(agent.id, { message: "hi" }, { authorization: `Bearer ${rotated}`, "x-parley-client-ip": ip }), 401, {
      error: "HTTP API key not configured",
    });
  });
});

describe("rate limits", () => {
  beforeEach(() => freezeClockAtWindowStart(60));
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the 31st request in a minute for an agent is 429 with Retry-After", async () => {
    // With REDIS_URL set the test context's limiters run on that Redis.
    expect(ctx.limiters.backend).toBe(process.env.REDIS_URL ? "redis" : "memory");
    const agent = await createAgentWithKey(ctx);
    // Invalid bodies are cheap and count like any request that passed authentication.
    for (let i = 1; i <= 30; i++) {
      const response = await postAs(agent, {});
      expect(response.status).toBe(400);
      expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"messages";r=${30 - i};t=\\d+$`));
    }
    const limited = await postAs(agent, { message: "hi" });
    await expectError(limited, 429, { error: "Rate limit exceeded" });
    expect(limited.headers.get("link")).toBe('</docs#errors-rate-limited>; rel="help"');
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectRateLimitHeaders(limited);
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
    // Another agent is not affected.
    const other = await createAgentWithKey(ctx);
    expect((await postAs(other, { message: "hi" })).status).toBe(200);
  });

  it("limits failed keys per client IP; a blocked IP's wrong keys get 429, its valid keys still pass", async () => {
    const agent = await createAgentWithKey(ctx);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      await expectError(await post(agent.id, { message: "hi" }, { authorization: `Bearer pk_guess${i}`, "x-parley-client-ip": ip }), 401, {
        error: "Invalid bearer token",
      });
    }
    const blocked = await post(agent.id, { message: "hi" }, { authorization: "Bearer pk_guess-more", "x-parley-client-ip": ip });
    await expectError(blocked, 429, { error: "Rate limit exceeded" });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(blocked.headers.get("ratelimit-policy")).toBe('"failed-keys";q=10;w=60');
    // The host's integration with the right key keeps working (a consumer of a rotated key on the
    // same host must not lock it out); its wrong keys stay refused.
    expect((await postAs(agent, { message: "hi" }, { "x-parley-client-ip": ip })).status).toBe(200);
    await expectError(await post(agent.id, { message: "hi" }, { authorization: "Bearer pk_guess-again", "x-parley-client-ip": ip }), 429, {
      error: "Rate limit exceeded",
    });
    // Other clients are not affected, and correct keys never count as failures.
    expect((await postAs(agent, { message: "hi" }, { "x-parley-client-ip": freshIp() })).status).toBe(200);
  });
});
