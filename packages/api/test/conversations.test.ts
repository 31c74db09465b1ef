// conversations.* and usage.* procedures through createCaller on a real database: listing with
// filters and pages, transcripts, the human reply (escalated only, gapless sequence), status
// changes, monthly usage against limits and the daily series, and workspace isolation.
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

interface SeedMessage {
  role: "user" | "agent" | "human";
  text: string;
  tokens?: number;
  at?: Date;
}

/** A conversation with messages numbered from 0, as the messages API stores them. */
async function conversation(
  agentId: string,
  options: { status?: "active" | "escalated"; createdAt?: Date; updatedAt?: Date; messages?: SeedMessage[]; visitorName?: string } = {},
) {
  const messages = options.messages ?? [];
  return ctx.db.prisma.conversation.create({
    data: {
      agentId,
      status: options.status ?? "active",
      visitorName: options.visitorName ?? null,
      visitorEmail: options.visitorName ? `${options.visitorName.toLowerCase()}@example.com` : null,
      clientVariables: { plan: "pro" },
      messageCount: messages.length,
      createdAt: options.createdAt,
      updatedAt: options.updatedAt,
      messages: {
        create: messages.map((message, sequence) => ({
          role: message.role,
          text: message.text,
          tokens: message.tokens ?? 0,
          sequence,
          createdAt: message.at,
          toolCalls: message.role === "agent" ? [{ name: "search_knowledge_base", args: { query: message.text } }] : [],
        })),
      },
    },
  });
}

describe("conversations", () => {
  it("lists the workspace's conversations with their last message, filtered and paged", async () => {
    const ws = await createWorkspace(ctx, "listing");
    const second = await ctx.db.prisma.agent.create({ data: { id: "listing-second", workspaceId: ws.scope.workspaceId, name: "Second" } });
    const older = await conversation(ws.agentId, {
      updatedAt: new Date("2026-11-10T00:00:00Z"),
      visitorName: "Ada",
      messages: [
        { role: "user", text: "Hello" },
        { role: "agent", text: "Hi! How can I help?" },
      ],
    });
    const escalated = await conversation(ws.agentId, {
      status: "escalated",
      updatedAt: new Date("2026-11-11T00:00:00Z"),
      messages: [{ role: "user", text: "A person please" }],
    });
    const other = await conversation(second.id, { updatedAt: new Date("2026-11-12T00:00:00Z") });
    await conversation(b.agentId, { updatedAt: new Date("2026-11-13T00:00:00Z") });

    const caller = callerFor(ctx, ws.scope);
    const all = await caller.conversations.list();
    expect(all.items.map((item) => item.id)).toEqual([other.id, escalated.id, older.id]);
    expect(all.nextCursor).toBeNull();
    expect(all.items[2]).toEqual({
      id: older.id,
      agentId: ws.agentId,
      agentName: "listing agent",
      status: "active",
      channel: "api",
      visitorName: "Ada",
      visitorEmail: "ada@example.com",
      visitorPhone: null,
      firstPageUrl: null,
      messageCount: 2,
      assignee: null,
      joinedBy: null,
      escalatedAt: null,
      waitingSince: null,
      resolvedAt: null,
      rating: null,
      // The visitor wrote and this person has not opened it.
      unread: true,
      erasedAt: null,
      createdAt: expect.any(Date),
      updatedAt: new Date("2026-11-10T00:00:00Z"),
      lastMessage: { role: "agent", text: "Hi! How can I help?", createdAt: expect.any(Date) },
      lastVisitorMessage: { role: "user", text: "Hello", createdAt: expect.any(Date) },
    });
    expect(all.items[0]?.lastMessage).toBeNull();

    expect((await caller.conversations.list({ status: "escalated" })).items.map((item) => item.id)).toEqual([escalated.id]);
    expect((await caller.conversations.list({ agentId: second.id })).items.map((item) => item.id)).toEqual([other.id]);
    // Another workspace's agent id filters down to nothing.
    expect((await caller.conversations.list({ agentId: b.agentId })).items).toEqual([]);

    const page1 = await caller.conversations.list({ limit: 2 });
    expect(page1.items.map((item) => item.id)).toEqual([other.id, escalated.id]);
    expect(page1.nextCursor).toBe(escalated.id);
    const page2 = await caller.conversations.list({ limit: 2, cursor: page1.nextCursor });
    expect(page2.items.map((item) => item.id)).toEqual([older.id]);
    expect(page2.nextCursor).toBeNull();

    await expect(caller.conversations.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("reads a transcript in order, with tool calls and client variables", async () => {
    const row = await conversation(a.agentId, {
      messages: [
        { role: "user", text: "Where is my refund?" },
        { role: "agent", text: "Refunds take 5 days.", tokens: 120 },
      ],
    });
    const detail = await callerFor(ctx, a.scope).conversations.get({ id: row.id });
    expect(detail).toMatchObject({
      id: row.id,
      agentName: "alpha agent",
      status: "active",
      clientVariables: { plan: "pro" },
      messageCount: 2,
    });
    expect(detail.messages).toEqual([
      {
        id: expect.any(String),
        role: "user",
        text: "Where is my refund?",
        html: null,
        tokens: 0,
        toolCalls: [],
        richContent: [],
        sequence: 0,
        voice: false,
        interrupted: false,
        createdAt: expect.any(Date),
      },
      {
        id: expect.any(String),
        role: "agent",
        text: "Refunds take 5 days.",
        html: "<p>Refunds take 5 days.</p>\n",
        tokens: 120,
        toolCalls: [{ name: "search_knowledge_base", args: { query: "Refunds take 5 days." } }],
        richContent: [],
        sequence: 1,
        voice: false,
        interrupted: false,
        createdAt: expect.any(Date),
      },
    ]);
  });

  it("gives agent and team replies as sanitised HTML of their Markdown, and the visitor's text as written", async () => {
    const attack = "**Done**: see [guide](javascript&#58;fetch('/api/trpc/keys.generate'))\n<img src=x onerror=alert(1)>";
    const row = await conversation(a.agentId, {
      messages: [
        { role: "user", text: attack },
        { role: "agent", text: attack },
        { role: "human", text: attack },
      ],
    });
    const { messages } = await callerFor(ctx, a.scope).conversations.get({ id: row.id });
    // A message's image is a link to it, never loaded.
    const sanitised = '<p><strong>Done</strong>: see <a>guide</a><br /><a href="x">Image</a></p>\n';
    expect(messages.map(({ role, text, html }) => ({ role, text, html }))).toEqual([
      { role: "user", text: attack, html: null },
      { role: "agent", text: attack, html: sanitised },
      { role: "human", text: attack, html: sanitised },
    ]);
  });

  it("takes a human reply in any conversation, taking it over first; concurrent replies keep gapless sequences", async () => {
    const caller = callerFor(ctx, a.scope);
    const active = await conversation(a.agentId, { messages: [{ role: "user", text: "Hi" }] });
    expect(await caller.conversations.reply({ id: active.id, text: "Hello from a person" })).toMatchObject({ role: "human", sequence: 1 });
    // The agent no longer answers it: escalated, and the replier's.
    expect(await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: active.id } })).toMatchObject({
      status: "escalated",
      assigneeId: a.scope.userId,
      messageCount: 2,
    });

    const escalated = await conversation(a.agentId, {
      status: "escalated",
      messages: [
        { role: "user", text: "A person please" },
        { role: "agent", text: "Connecting you." },
      ],
    });
    const reply = await caller.conversations.reply({ id: escalated.id, text: "Hi, this is Sam." });
    expect(reply).toMatchObject({ role: "human", text: "Hi, this is Sam.", sequence: 2, tokens: 0, toolCalls: [], richContent: [] });
    // Concurrent replies still get consecutive sequences.
    const both = await Promise.all([
      caller.conversations.reply({ id: escalated.id, text: "One" }),
      caller.conversations.reply({ id: escalated.id, text: "Two" }),
    ]);
    expect(both.map((message) => message.sequence).sort()).toEqual([3, 4]);
    const stored = await ctx.db.prisma.conversation.findUniqueOrThrow({
      where: { id: escalated.id },
      include: { messages: { orderBy: { sequence: "asc" } } },
    });
    expect(stored.messageCount).toBe(5);
    expect(stored.messages.map((message) => [message.sequence, message.role])).toEqual([
      [0, "user"],
      [1, "agent"],
      [2, "human"],
      [3, "human"],
      [4, "human"],
    ]);

    await expect(caller.conversations.reply({ id: escalated.id, text: " " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.conversations.reply({ id: escalated.id, text: "x".repeat(10_001) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("treats another workspace's conversations as not found", async () => {
    const row = await conversation(a.agentId, { status: "escalated", messages: [{ role: "user", text: "Hi" }] });
    const caller = callerFor(ctx, b.scope);
    await expect(caller.conversations.get({ id: row.id })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Conversation not found" });
    await expect(caller.conversations.reply({ id: row.id, text: "Sneaky" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Conversation not found",
    });
    for (const change of [caller.conversations.takeOver, caller.conversations.handBack, caller.conversations.resolve]) {
      await expect(change({ id: row.id })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Conversation not found" });
    }
    await expect(caller.conversations.assign({ id: row.id, assigneeId: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "escalated",
      assigneeId: null,
      messageCount: 1,
    });
    expect((await caller.conversations.list()).items.some((item) => item.id === row.id)).toBe(false);
  });
});

describe("usage", () => {
  it("summarises this month per agent against its limits", async () => {
    const ws = await createWorkspace(ctx, "usage");
    const idle = await ctx.db.prisma.agent.create({
      data: {
        id: "usage-idle",
        workspaceId: ws.scope.workspaceId,
        name: "Idle",
        monthlyConversationLimit: 10,
        monthlyTokenLimit: 1000,
        usageLimit: 50,
      },
    });
    await ctx.db.prisma.usageMonth.createMany({
      data: [
        { agentId: ws.agentId, month: "2026-11", conversations: 3, tokens: 420, turns: 7 },
        { agentId: ws.agentId, month: "2026-10", conversations: 99, tokens: 9999, turns: 99 },
        { agentId: b.agentId, month: "2026-11", conversations: 5, tokens: 5, turns: 5 },
      ],
    });
    expect(await callerFor(ctx, ws.scope).usage.summary()).toEqual([
      {
        agentId: ws.agentId,
        agentName: "usage agent",
        month: "2026-11",
        conversations: 3,
        tokens: 420,
        turns: 7,
        monthlyConversationLimit: null,
        monthlyTokenLimit: null,
        usageLimit: null,
        voiceEnabled: false,
        voiceMinutes: 0,
        monthlyVoiceMinutesLimit: null,
      },
      {
        agentId: idle.id,
        agentName: "Idle",
        month: "2026-11",
        conversations: 0,
        tokens: 0,
        turns: 0,
        monthlyConversationLimit: 10,
        monthlyTokenLimit: 1000,
        usageLimit: 50,
        voiceEnabled: false,
        voiceMinutes: 0,
        monthlyVoiceMinutesLimit: null,
      },
    ]);
  });

  it("gives a daily series of conversations and tokens, zero days included", async () => {
    const ws = await createWorkspace(ctx, "daily");
    const second = await ctx.db.prisma.agent.create({ data: { id: "daily-second", workspaceId: ws.scope.workspaceId, name: "Second" } });
    const day = (date: string, time = "10:00:00") => new Date(`${date}T${time}Z`);
    await conversation(ws.agentId, {
      createdAt: day("2026-11-18", "23:59:59"),
      messages: [
        { role: "user", text: "q", at: day("2026-11-18", "23:59:59") },
        { role: "agent", text: "a", tokens: 100, at: day("2026-11-19", "00:00:01") },
      ],
    });
    await conversation(ws.agentId, {
      createdAt: day("2026-11-20"),
      messages: [{ role: "agent", text: "a", tokens: 7, at: day("2026-11-20") }],
    });
    await conversation(second.id, {
      createdAt: day("2026-11-20"),
      messages: [{ role: "agent", text: "a", tokens: 30, at: day("2026-11-20") }],
    });
    // Outside the window, and another workspace's: not counted.
    await conversation(ws.agentId, {
      createdAt: day("2026-11-16"),
      messages: [{ role: "agent", text: "a", tokens: 1000, at: day("2026-11-16") }],
    });
    await conversation(b.agentId, {
      createdAt: day("2026-11-20"),
      messages: [{ role: "agent", text: "a", tokens: 500, at: day("2026-11-20") }],
    });

    const caller = callerFor(ctx, ws.scope);
    expect(await caller.usage.daily({ days: 4 })).toEqual([
      { date: "2026-11-17", conversations: 0, tokens: 0 },
      { date: "2026-11-18", conversations: 1, tokens: 0 },
      { date: "2026-11-19", conversations: 0, tokens: 100 },
      { date: "2026-11-20", conversations: 2, tokens: 37 },
    ]);
    expect(await caller.usage.daily({ days: 2, agentId: second.id })).toEqual([
      { date: "2026-11-19", conversations: 0, tokens: 0 },
      { date: "2026-11-20", conversations: 1, tokens: 30 },
    ]);
    // The default is 30 days, ending today (UTC).
    const month = await caller.usage.daily();
    expect(month).toHaveLength(30);
    expect(month[0]?.date).toBe("2026-10-22");
    expect(month.at(-1)?.date).toBe("2026-11-20");
    // Another workspace's agent counts nothing.
    expect((await caller.usage.daily({ days: 1, agentId: b.agentId }))[0]).toEqual({ date: "2026-11-20", conversations: 0, tokens: 0 });
    await expect(caller.usage.daily({ days: 91 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.usage.daily({ days: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
