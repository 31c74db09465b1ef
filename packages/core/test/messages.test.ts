// The send-message pipeline in core: what a turn writes, continuation and the
// cross-agent 404, escalation, monthly quotas and their atomic reservation under concurrency,
// idempotent replays, and that a failing engine or database leaves nothing behind. Real database,
// either mode (the races are real on PostgreSQL).

import type { TestContext } from "@parley/testing/context";
import { type FakeOpenAi, scripts, startFakeOpenAi } from "@parley/testing/fake-openai";
import { createAgentWithKey, createMessagingContext, messageInput, type TestAgent } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../src/app-context.ts";
import { type SendMessageInput, sendMessage } from "../src/conversations/turn/send-message.ts";
import type { Engine, EngineInput } from "../src/engine/types.ts";
import { usageMonth } from "../src/usage/quotas.ts";

/** The reply of a turn in an escalated conversation nobody has joined, without a measured reply time. */
const WAITING_REPLY = "Thanks, your message has been added to the conversation. A person will reply here.";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createMessagingContext();
});

afterAll(async () => {
  await ctx.close();
});

interface Outcome {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** sendMessage's result (it answers every error itself). */
async function send(input: SendMessageInput, context: AppContext = ctx): Promise<Outcome> {
  const result = await sendMessage(context, input);
  return { status: result.status, body: result.json as Record<string, unknown>, headers: result.headers };
}

async function rowsOf(agentId: string) {
  const conversations = await ctx.db.prisma.conversation.findMany({ where: { agentId }, orderBy: { createdAt: "asc" } });
  const messages = await ctx.db.prisma.message.findMany({
    where: { conversation: { agentId } },
    orderBy: [{ conversationId: "asc" }, { sequence: "asc" }],
  });
  const usage = await ctx.db.prisma.usageMonth.findMany({ where: { agentId } });
  return { conversations, messages, usage };
}

describe("a successful turn", () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await createAgentWithKey(ctx);
  });

  it("answers with exactly the seven fields of spec 2.2 and writes the turn", async () => {
    const outcome = await send(
      messageInput(agent, {
        message: "How do I reset my password?",
        visitor: { name: "Ada", email: "ada@example.com", phone: "+14155550100" },
        clientVariables: { plan: "pro", page: "/billing" },
      }),
    );
    expect(outcome.status).toBe(200);
    expect(Object.keys(outcome.body).sort()).toEqual(
      ["conversationId", "handoffRequested", "reply", "richContent", "status", "tokenUsage", "toolCalls"].sort(),
    );
    const body = outcome.body;
    expect(body).toMatchObject({ handoffRequested: false, status: "active" });
    expect(body.reply).toMatch(/^Hi Ada, from “How to reset your password”:\n\n1\. Go to the sign-in page /);
    expect(body.toolCalls).toEqual([{ name: "search_knowledge_base", args: { query: "How do I reset my password?" } }]);
    expect(Number.isInteger(body.tokenUsage)).toBe(true);
    expect(outcome.headers["ratelimit-policy"]).toBeDefined();
    expect(outcome.headers.ratelimit).toBeDefined();

    const { conversations, messages, usage } = await rowsOf(agent.id);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({
      id: body.conversationId,
      status: "active",
      channel: "api",
      visitorName: "Ada",
      visitorEmail: "ada@example.com",
      visitorPhone: "+14155550100",
      clientVariables: { plan: "pro", page: "/billing" },
      messageCount: 2,
    });
    expect(messages.map((m) => [m.role, m.sequence])).toEqual([
      ["user", 0],
      ["agent", 1],
    ]);
    expect(messages[0]!.text).toBe("How do I reset my password?");
    expect(messages[1]).toMatchObject({
      text: body.reply,
      tokens: body.tokenUsage,
      toolCalls: body.toolCalls,
      richContent: body.richContent,
    });
    expect(usage).toEqual([
      expect.objectContaining({ month: usageMonth(new Date()), conversations: 1, turns: 1, tokens: body.tokenUsage }),
    ]);
  });

  it("continues a conversation: sequences go on, visitor fields sent replace, variables merge", async () => {
    const first = await send(messageInput(agent, { message: "hi", visitor: { name: "Grace" }, clientVariables: { a: "1", b: "2" } }));
    const conversationId = first.body.conversationId as string;
    const second = await send(
      messageInput(agent, {
        message: "How can I request a refund?",
        conversationId,
        visitor: { email: "g@example.com" },
        clientVariables: { b: "3", c: "4" },
      }),
    );
    expect(second.status).toBe(200);
    expect(second.body.conversationId).toBe(conversationId);
    const conversation = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { messages: true } });
    expect(conversation).toMatchObject({
      visitorName: "Grace",
      visitorEmail: "g@example.com",
      visitorPhone: null,
      clientVariables: { a: "1", b: "3", c: "4" },
      messageCount: 4,
    });
    expect(conversation.messages.map((m) => m.sequence).sort()).toEqual([0, 1, 2, 3]);
    // One conversation counted, two turns.
    const usage = await ctx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId: agent.id } });
    expect(usage.conversations).toBe(2);
    expect(usage.turns).toBe(3);
  });

  it("404s a conversation of another agent or none, writing nothing", async () => {
    const other = await createAgentWithKey(ctx);
    const theirs = await send(messageInput(other, { message: "hi" }));
    const before = await rowsOf(agent.id);
    for (const conversationId of [theirs.body.conversationId as string, "c-does-not-exist"]) {
      const outcome = await send(messageInput(agent, { message: "hi", conversationId }));
      expect(outcome.status).toBe(404);
      expect(outcome.body).toEqual({ error: "Conversation not found" });
      expect(outcome.headers["ratelimit-policy"]).toBeDefined();
    }
    expect(await rowsOf(agent.id)).toEqual(before);
  });

  it("keeps 10 concurrent turns of one conversation in order without gaps", async () => {
    const first = await send(messageInput(agent, { message: "hi" }));
    const conversationId = first.body.conversationId as string;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(messageInput(agent, { message: `question ${i}`, conversationId }))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill(200));
    const messages = await ctx.db.prisma.message.findMany({ where: { conversationId }, orderBy: { sequence: "asc" } });
    expect(messages.map((m) => m.sequence)).toEqual(Array.from({ length: 22 }, (_, i) => i));
    // Each user message is directly followed by its own answer.
    for (let i = 0; i < 22; i += 2) {
      expect(messages[i]!.role).toBe("user");
      expect(messages[i + 1]!.role).toBe("agent");
    }
    const conversation = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conversation.messageCount).toBe(22);
  });
});

describe("handoff", () => {
  it("escalates, and the conversation stays escalated with the message stored", async () => {
    const agent = await createAgentWithKey(ctx);
    const calls: EngineInput[] = [];
    const knowledge = ctx.engineFor({ id: agent.id, name: "", engine: "knowledge", instructions: "" });
    const spying: AppContext = {
      ...ctx,
      engineFor: () => ({
        run: (input) => {
          calls.push(input);
          return knowledge.run(input);
        },
      }),
    };
    const first = await send(messageInput(agent, { message: "Can I talk to a human?" }), spying);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ handoffRequested: true, status: "escalated" });
    expect(first.body.reply).toContain("will follow up");

    const conversationId = first.body.conversationId as string;
    const later = await send(messageInput(agent, { message: "How do I reset my password?", conversationId }), spying);
    expect(later.status).toBe(200);
    // Nobody has joined yet and the workspace has no answered handoffs to measure: no time is promised.
    expect(later.body).toEqual({
      conversationId,
      reply: WAITING_REPLY,
      tokenUsage: expect.any(Number),
      toolCalls: [],
      richContent: [],
      handoffRequested: false,
      status: "escalated",
    });
    // The engine answered only the first turn; the person taking over has both messages.
    expect(calls).toHaveLength(1);
    const conversation = await ctx.db.prisma.conversation.findUniqueOrThrow({
      where: { id: conversationId },
      include: { messages: { orderBy: { sequence: "asc" } } },
    });
    expect(conversation.status).toBe("escalated");
    expect(conversation.messages.map((m) => m.text)).toEqual([
      "Can I talk to a human?",
      first.body.reply,
      "How do I reset my password?",
      WAITING_REPLY,
    ]);
  });
});

describe("quotas", () => {
  it("402s a new conversation beyond the monthly conversation limit; continuing is still fine", async () => {
    const agent = await createAgentWithKey(ctx, { monthlyConversationLimit: 2 });
    const a = await send(messageInput(agent, { message: "hi" }));
    const b = await send(messageInput(agent, { message: "hi" }));
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await send(messageInput(agent, { message: "hi" }));
    expect(third.status).toBe(402);
    expect(third.body).toEqual({ error: "Monthly conversation quota exhausted" });
    expect(third.headers["ratelimit-policy"]).toBeDefined();
    const continued = await send(messageInput(agent, { message: "hi again", conversationId: a.body.conversationId as string }));
    expect(continued.status).toBe(200);
    expect((await rowsOf(agent.id)).conversations).toHaveLength(2);
  });

  it("402s every turn once the monthly token limit is used (the demo-tokens agent)", async () => {
    // demo-tokens (seeded) allows 1 token a month: the first turn may start, its tokens use it up.
    const { key } = await import("../src/agents/keys/secrets.ts").then((keys) => keys.generateAgentKey(ctx.db, "demo-tokens"));
    const agent = { id: "demo-tokens", key };
    const first = await send(messageInput(agent, { message: "How do I reset my password?" }));
    expect(first.status).toBe(200);
    const next = await send(messageInput(agent, { message: "hi" }));
    expect(next.status).toBe(402);
    expect(next.body).toEqual({ error: "Monthly token quota exhausted" });
    const continued = await send(messageInput(agent, { message: "hi", conversationId: first.body.conversationId as string }));
    expect(continued.body).toEqual({ error: "Monthly token quota exhausted" });
    const usage = await ctx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId: "demo-tokens" } });
    expect(usage).toMatchObject({ turns: 1, conversations: 1, tokens: first.body.tokenUsage });
  });

  it("402s turns beyond the usage limit, counted per calendar month (UTC)", async () => {
    const agent = await createAgentWithKey(ctx, { usageLimit: 2 });
    let now = new Date("2031-01-31T23:59:00.000Z");
    const timed: AppContext = { ...ctx, now: () => now };
    const first = await send(messageInput(agent, { message: "hi" }), timed);
    const second = await send(messageInput(agent, { message: "hi", conversationId: first.body.conversationId as string }), timed);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await send(messageInput(agent, { message: "hi" }), timed);
    expect(third.status).toBe(402);
    expect(third.body).toEqual({ error: "Usage limit reached" });
    now = new Date("2031-02-01T00:00:00.000Z");
    const nextMonth = await send(messageInput(agent, { message: "hi" }), timed);
    expect(nextMonth.status).toBe(200);
    const usage = await ctx.db.prisma.usageMonth.findMany({ where: { agentId: agent.id }, orderBy: { month: "asc" } });
    expect(usage.map((u) => [u.month, u.turns])).toEqual([
      ["2031-01", 2],
      ["2031-02", 1],
    ]);
  });

  it("lets exactly 3 of 20 concurrent new conversations through when 3 are left", async () => {
    const agent = await createAgentWithKey(ctx, { monthlyConversationLimit: 10 });
    await ctx.db.prisma.usageMonth.create({ data: { agentId: agent.id, month: usageMonth(new Date()), conversations: 7, turns: 7 } });
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => send(messageInput(agent, { message: `hello number ${i}` }))));
    const statuses = outcomes.map((o) => o.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    for (const refused of outcomes.filter((o) => o.status === 402))
      expect(refused.body).toEqual({ error: "Monthly conversation quota exhausted" });
    const { conversations, messages, usage } = await rowsOf(agent.id);
    expect(conversations).toHaveLength(3);
    expect(messages).toHaveLength(6);
    expect(usage[0]).toMatchObject({ conversations: 10, turns: 10 });
  });

  it("lets exactly one of many concurrent turns take the last unit of the usage limit", async () => {
    const agent = await createAgentWithKey(ctx, { usageLimit: 5 });
    await ctx.db.prisma.usageMonth.create({ data: { agentId: agent.id, month: usageMonth(new Date()), conversations: 0, turns: 4 } });
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => send(messageInput(agent, { message: "hi" }))));
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 402 && o.body.error === "Usage limit reached")).toHaveLength(11);
    const usage = await ctx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId: agent.id } });
    expect(usage).toMatchObject({ turns: 5, conversations: 1 });
  });
});

describe("Idempotency-Key", () => {
  it("replays the stored response for the same key and body, without a new turn", async () => {
    const agent = await createAgentWithKey(ctx);
    const body = { message: "How do I reset my password?", visitor: { name: "Ada" } };
    const first = await send(messageInput(agent, body, { idempotencyKey: "order-42" }));
    expect(first.status).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const before = await rowsOf(agent.id);
    // Same body with another key order and spacing: the same request.
    const replay = await send(
      messageInput(agent, null, {
        idempotencyKey: "order-42",
        rawBody: '{ "visitor": {"name":"Ada"}, "message": "How do I reset my password?" }',
      }),
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.headers["ratelimit-policy"]).toBeDefined();
    expect(await rowsOf(agent.id)).toEqual(before);

    const conflict = await send(messageInput(agent, { message: "Something else" }, { idempotencyKey: "order-42" }));
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: "Idempotency-Key reused with a different request" });
    expect(await rowsOf(agent.id)).toEqual(before);

    // Keys are per agent: another agent may use the same one.
    const other = await createAgentWithKey(ctx);
    expect((await send(messageInput(other, { message: "Something else" }, { idempotencyKey: "order-42" }))).status).toBe(200);
  });

  it("forgets a key after 24 hours", async () => {
    const agent = await createAgentWithKey(ctx);
    let now = new Date();
    const timed: AppContext = { ...ctx, now: () => now };
    const first = await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "k1" }), timed);
    now = new Date(now.getTime() + 24 * 3600_000 + 1000);
    const later = await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "k1" }), timed);
    expect(later.status).toBe(200);
    expect(later.body.conversationId).not.toBe(first.body.conversationId);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    // The new response is the one stored now.
    const replay = await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "k1" }), timed);
    expect(replay.body).toEqual(later.body);
  });

  it("runs one turn for concurrent requests with the same key", async () => {
    const agent = await createAgentWithKey(ctx);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => send(messageInput(agent, { message: "hi" }, { idempotencyKey: "same" }))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array(6).fill(200));
    expect(new Set(outcomes.map((o) => o.body.conversationId)).size).toBe(1);
    const { conversations, usage } = await rowsOf(agent.id);
    expect(conversations).toHaveLength(1);
    expect(usage[0]).toMatchObject({ turns: 1, conversations: 1 });
  });

  it("stores nothing for a failed request, which may then be retried", async () => {
    const agent = await createAgentWithKey(ctx, { usageLimit: 0 });
    const refused = await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "retry-me" }));
    expect(refused.status).toBe(402);
    expect(await ctx.db.prisma.idempotencyRecord.count({ where: { agentId: agent.id } })).toBe(0);
    await ctx.db.prisma.agent.update({ where: { id: agent.id }, data: { usageLimit: null } });
    expect((await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "retry-me" }))).status).toBe(200);
  });

  it("rejects a key longer than 255 characters", async () => {
    const agent = await createAgentWithKey(ctx);
    const outcome = await send(messageInput(agent, { message: "hi" }, { idempotencyKey: "k".repeat(256) }));
    expect(outcome.status).toBe(400);
    expect(outcome.body).toEqual({ error: "Invalid request", details: "Idempotency-Key: must be 1 to 255 characters" });
  });
});

describe("failures leave nothing half-written", () => {
  const failing: Engine = {
    run: async () => {
      throw new Error("model exploded");
    },
  };

  it("a failing engine is 500 Internal error with no rows, on a new or a continued conversation", async () => {
    const agent = await createAgentWithKey(ctx);
    const started = await send(messageInput(agent, { message: "hi" }));
    const before = await rowsOf(agent.id);
    const broken: AppContext = { ...ctx, engineFor: () => failing };
    for (const body of [{ message: "hi" }, { message: "hi", conversationId: started.body.conversationId as string }]) {
      const outcome = await send(messageInput(agent, body, { idempotencyKey: `fail-${body.conversationId ?? "new"}` }), broken);
      expect(outcome.status).toBe(500);
      expect(outcome.body).toEqual({ error: "Internal error" });
      expect(outcome.headers["ratelimit-policy"]).toBeDefined();
    }
    expect(await rowsOf(agent.id)).toEqual(before);
    expect(await ctx.db.prisma.idempotencyRecord.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("a database failure inside the turn rolls everything back", async () => {
    const agent = await createAgentWithKey(ctx);
    // PostgreSQL text cannot hold NUL: the agent message insert fails after usage and conversation.
    const nul: AppContext = {
      ...ctx,
      engineFor: () => ({
        run: async () => ({ reply: "bad\u0000reply", tokenUsage: 3, toolCalls: [], richContent: [], handoffRequested: false }),
      }),
    };
    const outcome = await send(messageInput(agent, { message: "hi" }), nul);
    expect(outcome.status).toBe(500);
    expect(outcome.body).toEqual({ error: "Internal error" });
    const { conversations, messages, usage } = await rowsOf(agent.id);
    expect([conversations.length, messages.length]).toEqual([0, 0]);
    expect(usage).toEqual([]);
  });
});

describe("the LLM agent through the pipeline (local fake OpenAI-compatible server)", () => {
  let llmCtx: TestContext;
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: "sk-test" });
    llmCtx = await createMessagingContext({ llm: { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 5_000 } });
  });

  afterAll(async () => {
    await llmCtx.close();
    await fake.close();
  });

  async function llmAgent(context: TestContext): Promise<TestAgent> {
    const agent = await createAgentWithKey(context);
    await context.db.prisma.agent.update({ where: { id: agent.id }, data: { engine: "llm" } });
    return agent;
  }

  it("returns and stores the provider's tool calls and token usage", async () => {
    const agent = await llmAgent(llmCtx);
    fake.enqueue(...scripts.searchThenAnswer("reset password", "From “How to reset your password”: choose Forgot password [2]."));
    const outcome = await send(messageInput(agent, { message: "How do I reset my password?" }), llmCtx);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({
      reply: "From “How to reset your password”: choose Forgot password.",
      tokenUsage: 120 + 18 + 410 + 42,
      // The engine's retrieval for the message, then the model's own search.
      toolCalls: [
        { name: "search_knowledge_base", args: { query: "How do I reset my password?" } },
        { name: "search_knowledge_base", args: { query: "reset password" } },
      ],
      richContent: [{ type: "articles", articles: [{ id: "art-reset-password", title: "How to reset your password" }] }],
      handoffRequested: false,
      status: "active",
    });
    const usage = await llmCtx.db.prisma.usageMonth.findFirstOrThrow({ where: { agentId: agent.id } });
    expect(usage.tokens).toBe(590);
  });

  it("escalates on the provider's request_human call", async () => {
    const agent = await llmAgent(llmCtx);
    fake.enqueue(...scripts.handoff());
    const outcome = await send(messageInput(agent, { message: "I need to speak to someone about my contract" }), llmCtx);
    expect(outcome.body).toMatchObject({ handoffRequested: true, status: "escalated" });
  });

  it("a provider error is 500 with nothing stored", async () => {
    const agent = await llmAgent(llmCtx);
    fake.enqueue(...scripts.error());
    const outcome = await send(messageInput(agent, { message: "hi there" }), llmCtx);
    expect(outcome.status).toBe(500);
    expect(outcome.body).toEqual({ error: "Internal error" });
    expect(await llmCtx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await llmCtx.db.prisma.usageMonth.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("an LLM agent on a deployment without an endpoint is answered by the knowledge agent", async () => {
    const agent = await llmAgent(ctx);
    const before = fake.requests.length;
    const outcome = await send(messageInput(agent, { message: "How do I reset my password?" }));
    expect(outcome.status).toBe(200);
    expect(outcome.body.reply).toMatch(/^From “How to reset your password”:\n\n1\. Go to the sign-in page /);
    expect(fake.requests.length).toBe(before);
  });
});
