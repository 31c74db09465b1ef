// The panel home through its procedure on a real database: the escalations waiting for a person
// (the longest wait first, other workspaces' and assigned ones left out), each agent's conversations and
// turns today and this week, the questions the knowledge base could not answer (the gaps page's count), the agents close to
// a monthly limit, and the getting-started checklist ticked from stored rows.
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const SEARCHED = [{ name: "search_knowledge_base", args: { query: "refund" } }];
const ARTICLES = [{ type: "articles", articles: [{ id: "alpha-article", title: "alpha article" }] }];

interface MessageSpec {
  role: "user" | "agent" | "human";
  at: Date;
  unanswered?: boolean;
  answered?: boolean;
}

let conversationNumber = 0;
async function conversation(
  agentId: string,
  createdAt: Date,
  updatedAt: Date,
  messages: MessageSpec[] = [],
  extra: { status?: "escalated"; escalatedAt?: Date; waitingSince?: Date; assigneeId?: string; visitorName?: string } = {},
) {
  conversationNumber += 1;
  const id = `home-conversation-${conversationNumber}`;
  await ctx.db.prisma.conversation.create({
    data: {
      id,
      agentId,
      createdAt,
      updatedAt,
      messageCount: messages.length,
      ...extra,
      messages: {
        create: messages.map((message, sequence) => ({
          role: message.role,
          text: message.role === "user" ? "How do I get a refund?" : "Here is what I found.",
          sequence,
          createdAt: message.at,
          toolCalls: message.unanswered || message.answered ? SEARCHED : [],
          richContent: message.answered ? ARTICLES : [],
        })),
      },
    },
  });
  return id;
}

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  // Created after the fixture's agent: listed second.
  await ctx.db.prisma.agent.create({
    data: { id: "alpha-second", workspaceId: a.scope.workspaceId, name: "Second agent", createdAt: new Date("2099-01-01T00:00:00.000Z") },
  });
});

afterAll(async () => {
  await ctx?.close();
});

describe("what needs a person now", () => {
  it("lists the unassigned escalations of the workspace, the longest-waiting first, with the total", async () => {
    // The inbox's queue order: the longest wait first, although the older one was active more recently.
    const older = await conversation(a.agentId, ago(3 * HOUR), ago(HOUR / 4), [], {
      status: "escalated",
      escalatedAt: ago(2 * HOUR),
      waitingSince: ago(2 * HOUR),
      visitorName: "Ada",
    });
    const newer = await conversation(a.agentId, ago(HOUR), ago(HOUR / 2), [], {
      status: "escalated",
      escalatedAt: ago(HOUR / 2),
      waitingSince: ago(HOUR / 2),
    });
    await conversation(a.agentId, ago(HOUR), ago(HOUR), [], {
      status: "escalated",
      escalatedAt: ago(4 * HOUR),
      assigneeId: a.scope.userId,
    });
    await conversation(b.agentId, ago(HOUR), ago(HOUR), [], { status: "escalated", escalatedAt: ago(5 * HOUR) });

    const home = await callerFor(ctx, a.scope).home.get();
    expect(home.waiting.count).toBe(2);
    expect(home.waiting.oldest).toEqual([
      {
        conversationId: older,
        agentName: "alpha agent",
        visitorName: "Ada",
        visitorEmail: null,
        firstPageUrl: null,
        escalatedAt: ago(2 * HOUR),
        waitingSince: ago(2 * HOUR),
      },
      {
        conversationId: newer,
        agentName: "alpha agent",
        visitorName: null,
        visitorEmail: null,
        firstPageUrl: null,
        escalatedAt: ago(HOUR / 2),
        waitingSince: ago(HOUR / 2),
      },
    ]);
  });

  it("is refused without a session", async () => {
    await expect(callerFor(ctx, null).home.get()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("activity today and this week", () => {
  it("counts each agent's conversations started and agent turns, today (UTC) and over the last seven days", async () => {
    // Started today: two agent turns today, one of them unanswered.
    await conversation(a.agentId, ago(3 * HOUR), ago(2 * HOUR), [
      { role: "user", at: ago(3 * HOUR) },
      { role: "agent", at: ago(3 * HOUR), unanswered: true },
      { role: "user", at: ago(2 * HOUR) },
      { role: "agent", at: ago(2 * HOUR), answered: true },
    ]);
    // Started three days ago, answered then and again today.
    await conversation(a.agentId, ago(3 * DAY), ago(HOUR), [
      { role: "user", at: ago(3 * DAY) },
      { role: "agent", at: ago(3 * DAY), answered: true },
      { role: "human", at: ago(HOUR) },
      { role: "agent", at: ago(HOUR) },
    ]);
    // Started ten days ago; one unanswered turn two days ago (a turn of this week, not a conversation).
    await conversation(a.agentId, ago(10 * DAY), ago(2 * DAY), [
      { role: "agent", at: ago(10 * DAY), unanswered: true },
      { role: "agent", at: ago(2 * DAY), unanswered: true },
    ]);
    // Nothing this week.
    await conversation(a.agentId, ago(9 * DAY), ago(8 * DAY), [{ role: "agent", at: ago(8 * DAY), unanswered: true }]);
    // Another workspace's busy agent.
    await conversation(b.agentId, ago(HOUR), ago(HOUR), [{ role: "agent", at: ago(HOUR), unanswered: true }]);

    // The gaps page's open questions of the last 7 days (the same query as the page's total): not a
    // request for a person, not a dismissed one, not one older than the week, not another workspace's.
    await ctx.db.prisma.knowledgeGap.createMany({
      data: [
        { agentId: a.agentId, kind: "unanswered", question: "Refund?", normalized: "refund", createdAt: ago(3 * HOUR) },
        { agentId: a.agentId, kind: "not_helpful", question: "Refunds", normalized: "refund", createdAt: ago(2 * DAY) },
        { agentId: a.agentId, kind: "handoff", question: "A person please", normalized: "person", createdAt: ago(HOUR) },
        { agentId: a.agentId, kind: "unanswered", question: "Old", normalized: "old", createdAt: ago(8 * DAY) },
        { agentId: a.agentId, kind: "unanswered", question: "Gone", normalized: "gone", createdAt: ago(HOUR), dismissedAt: ago(HOUR / 2) },
        { agentId: b.agentId, kind: "unanswered", question: "Refund?", normalized: "refund", createdAt: ago(HOUR) },
      ],
    });
    const home = await callerFor(ctx, a.scope).home.get();
    // The escalations of the first test count too: three conversations started today (no turns).
    expect(home.activity).toEqual([
      {
        agentId: a.agentId,
        agentName: "alpha agent",
        today: { conversations: 4, turns: 3 },
        week: { conversations: 5, turns: 5 },
        unanswered: 2,
      },
      {
        agentId: "alpha-second",
        agentName: "Second agent",
        today: { conversations: 0, turns: 0 },
        week: { conversations: 0, turns: 0 },
        unanswered: 0,
      },
    ]);
    expect(home.unansweredThisWeek).toBe(2);
    expect((await callerFor(ctx, a.scope).articles.gaps({})).counts.last7Days).toBe(home.unansweredThisWeek);
  });
});

describe("close to quota", () => {
  it("names each monthly counter at 80 % of its limit or more, the fullest first", async () => {
    await ctx.db.prisma.agent.update({
      where: { id: a.agentId },
      data: { monthlyConversationLimit: 10, monthlyTokenLimit: 1_000, usageLimit: 100 },
    });
    await ctx.db.prisma.agent.update({ where: { id: "alpha-second" }, data: { usageLimit: 50 } });
    await ctx.db.prisma.usageMonth.createMany({
      data: [
        { agentId: a.agentId, month: "2026-11", conversations: 8, tokens: 799, turns: 100 },
        { agentId: "alpha-second", month: "2026-10", turns: 50 },
        { agentId: "alpha-second", month: "2026-11", turns: 45 },
      ],
    });
    const home = await callerFor(ctx, a.scope).home.get();
    expect(home.month).toBe("2026-11");
    expect(home.nearQuota).toEqual([
      { agentId: a.agentId, agentName: "alpha agent", measure: "turns", used: 100, limit: 100 },
      { agentId: "alpha-second", agentName: "Second agent", measure: "turns", used: 45, limit: 50 },
      { agentId: a.agentId, agentName: "alpha agent", measure: "conversations", used: 8, limit: 10 },
    ]);
  });
});

describe("getting started", () => {
  it("an empty workspace has nothing ticked", async () => {
    const empty = await ctx.db.prisma.workspace.create({ data: { id: "empty-ws", name: "empty" } });
    const user = await ctx.db.prisma.user.create({
      data: { id: "empty-admin", workspaceId: empty.id, email: "empty@example.com", passwordHash: "unused" },
    });
    const home = await callerFor(ctx, { userId: user.id, workspaceId: empty.id, role: "owner" }).home.get();
    expect(home.gettingStarted).toEqual({
      keyGenerated: false,
      articlePublished: false,
      widgetEmbedded: false,
      webhookAdded: false,
      agentId: null,
    });
    expect(home.waiting).toEqual({ count: 0, oldest: [] });
    expect(home.activity).toEqual([]);
    expect(home.nearQuota).toEqual([]);
  });

  it("ticks each step from what is stored: a key, a published article, the widget on another site, an endpoint", async () => {
    const gamma = await createWorkspace(ctx, "gamma");
    await ctx.db.prisma.article.update({ where: { id: gamma.articleId }, data: { published: false } });
    const caller = callerFor(ctx, gamma.scope);
    expect((await caller.home.get()).gettingStarted).toEqual({
      keyGenerated: false,
      articlePublished: false,
      widgetEmbedded: false,
      webhookAdded: false,
      agentId: gamma.agentId,
    });

    await caller.keys.generate({ agentId: gamma.agentId });
    await ctx.db.prisma.article.update({ where: { id: gamma.articleId }, data: { published: true, publishedAt: NOW } });
    // Widget conversations alone (the help centre runs the widget too) do not tick the step.
    await ctx.db.prisma.usageMonth.create({ data: { agentId: gamma.agentId, month: "2026-09", conversations: 1, widgetConversations: 1 } });
    expect((await caller.home.get()).gettingStarted.widgetEmbedded).toBe(false);
    await ctx.db.prisma.agent.update({
      where: { id: gamma.agentId },
      data: { widgetSiteSeenAt: NOW, widgetSiteOrigin: "https://www.gamma.example" },
    });
    await ctx.db.prisma.webhookEndpoint.create({
      data: {
        workspaceId: gamma.scope.workspaceId,
        url: "https://hooks.example.com/parley",
        eventTypes: ["conversation.created"],
        secret: "whsec_test",
      },
    });
    expect((await caller.home.get()).gettingStarted).toEqual({
      keyGenerated: true,
      articlePublished: true,
      widgetEmbedded: true,
      webhookAdded: true,
      agentId: gamma.agentId,
    });
  });

  it("opens the oldest agent without a key, else the oldest agent", async () => {
    const epsilon = await createWorkspace(ctx, "epsilon");
    const caller = callerFor(ctx, epsilon.scope);
    const { createdAt } = await ctx.db.prisma.agent.findUniqueOrThrow({ where: { id: epsilon.agentId }, select: { createdAt: true } });
    const later = await ctx.db.prisma.agent.create({
      data: { id: "epsilon-later", workspaceId: epsilon.scope.workspaceId, name: "later", createdAt: new Date(createdAt.getTime() + 1000) },
    });
    await caller.keys.generate({ agentId: epsilon.agentId });
    expect((await caller.home.get()).gettingStarted.agentId).toBe(later.id);
    await caller.keys.generate({ agentId: later.id });
    expect((await caller.home.get()).gettingStarted.agentId).toBe(epsilon.agentId);
  });

  it("an archived article does not count as published", async () => {
    const delta = await createWorkspace(ctx, "delta");
    await ctx.db.prisma.article.update({ where: { id: delta.articleId }, data: { active: false } });
    expect((await callerFor(ctx, delta.scope).home.get()).gettingStarted.articlePublished).toBe(false);
  });
});
