// The inbox through the panel's procedures on a real database: taking over any conversation (the
// agent stops answering its HTTP API turns), handing back, resolving (the HTTP API's next turn
// reopens it as `active`), assigning, the mine/unassigned filters, the timeline, the live events a
// change publishes, and the one permission table.

import type { MessagingAgent } from "@parley/core/agents";
import { visitorTag } from "@parley/core/browser";
import { HANDOFF_TEXTS, planTransition, runTurn } from "@parley/core/conversations";
import { INBOX_SEARCH_WINDOW } from "@parley/core/conversations/limits";
import { PERMISSIONS, roleOf } from "@parley/core/people";
import { createMemoryLiveBus, inboxChannel, type LiveEvent } from "@parley/core/widget";
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;
let agent: MessagingAgent;
const colleague = { id: "alpha-colleague", name: "Sam Rivera" };

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  ctx.live = createMemoryLiveBus();
  await ctx.db.prisma.user.create({
    data: { ...colleague, workspaceId: a.scope.workspaceId, email: "sam@example.com", passwordHash: "unused" },
  });
  await ctx.db.prisma.user.update({ where: { id: a.scope.userId }, data: { name: "Alex Admin" } });
  agent = messagingAgent({ id: a.agentId, workspaceId: a.scope.workspaceId, name: "alpha agent" });
});

afterAll(async () => {
  await ctx?.close();
});

/** A turn of the HTTP API channel, as POST /api/agent/{agentId}/messages runs it. */
function apiTurn(message: string, conversationId?: string) {
  return runTurn(ctx, agent, { message, ...(conversationId ? { conversationId } : {}), visitor: { name: "Ada" } }, { channel: "api" });
}

async function stored(id: string) {
  return ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id } });
}

describe("take over, hand back, resolve", () => {
  it("a person takes over an active HTTP API conversation: the agent stops answering until it is handed back", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("How do I reset my password?");
    expect(first.status).toBe("active");

    const taken = await admin.conversations.takeOver({ id: first.conversationId });
    expect(taken).toMatchObject({ status: "escalated", assignee: { id: a.scope.userId, name: "Alex Admin" }, escalatedAt: NOW });

    // The spec's escalated behaviour: the message is stored for the person, the reply says so (and
    // names the person who took it over: they joined).
    const waiting = await apiTurn("Are you there?", first.conversationId);
    expect(waiting).toMatchObject({
      status: "escalated",
      reply: "Thanks, your message has been added to the conversation. Alex Admin will reply here.",
      handoffRequested: false,
      toolCalls: [],
    });

    expect(await admin.conversations.handBack({ id: first.conversationId })).toMatchObject({ status: "active" });
    const answered = await apiTurn("How do I reset my password?", first.conversationId);
    expect(answered.status).toBe("active");
    expect(answered.reply).not.toContain(HANDOFF_TEXTS.added);
    expect(answered.toolCalls.map((call) => call.name)).toContain("search_knowledge_base");
  });

  it("a resolved conversation is `resolved` in the panel; the HTTP API's next message reopens it as `active` and the agent answers", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Can I talk to a human?");
    expect(first.status).toBe("escalated");

    const resolved = await admin.conversations.resolve({ id: first.conversationId });
    expect(resolved).toMatchObject({ status: "resolved", resolvedAt: NOW });
    expect((await admin.conversations.list({ status: "resolved" })).items.map((item) => item.id)).toContain(first.conversationId);

    const reopened = await apiTurn("One more question about invoices", first.conversationId);
    expect(reopened.status).toBe("active");
    expect(reopened.reply).not.toContain(HANDOFF_TEXTS.added);
    expect(await stored(first.conversationId)).toMatchObject({ status: "active", resolvedAt: null });

    const detail = await admin.conversations.get({ id: first.conversationId });
    expect(detail.activity.map((entry) => [entry.kind, entry.actorName])).toEqual([
      ["escalated", null],
      ["resolved", "Alex Admin"],
      ["reopened", null],
    ]);
  });

  it("a turn asking for a person in a resolved conversation escalates it again", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Hello");
    await admin.conversations.resolve({ id: first.conversationId });
    const again = await apiTurn("I want to talk to a human", first.conversationId);
    expect(again).toMatchObject({ status: "escalated", handoffRequested: true });
    expect(await stored(first.conversationId)).toMatchObject({ status: "escalated", escalatedAt: NOW, resolvedAt: null });
  });

  it("asking for the state a conversation already has changes nothing and records nothing", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Hello");
    await admin.conversations.handBack({ id: first.conversationId });
    await admin.conversations.takeOver({ id: first.conversationId });
    await admin.conversations.takeOver({ id: first.conversationId });
    await admin.conversations.resolve({ id: first.conversationId });
    await admin.conversations.resolve({ id: first.conversationId });
    const detail = await admin.conversations.get({ id: first.conversationId });
    expect(detail.activity.map((entry) => entry.kind)).toEqual(["taken_over", "resolved"]);
  });
});

describe("assignment", () => {
  it("reassigns, unassigns, and refuses anyone who is not a team member of the workspace", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Hello");
    await admin.conversations.takeOver({ id: first.conversationId });
    expect(await admin.conversations.assign({ id: first.conversationId, assigneeId: colleague.id })).toMatchObject({
      status: "escalated",
      assignee: colleague,
    });
    await expect(admin.conversations.assign({ id: first.conversationId, assigneeId: "nobody" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Team member not found",
    });
    await expect(admin.conversations.assign({ id: first.conversationId, assigneeId: b.scope.userId })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Team member not found",
    });
    expect((await stored(first.conversationId)).assigneeId).toBe(colleague.id);
    await admin.conversations.assign({ id: first.conversationId, assigneeId: null });

    const detail = await admin.conversations.get({ id: first.conversationId });
    expect(detail.assignee).toBeNull();
    expect(detail.activity.map(({ kind, actorName, assigneeName, createdAt }) => ({ kind, actorName, assigneeName, createdAt }))).toEqual([
      { kind: "taken_over", actorName: "Alex Admin", assigneeName: "Alex Admin", createdAt: NOW },
      { kind: "assigned", actorName: "Alex Admin", assigneeName: "Sam Rivera", createdAt: NOW },
      { kind: "unassigned", actorName: "Alex Admin", assigneeName: null, createdAt: NOW },
    ]);
  });

  it("filters mine, unassigned and all; a reply self-assigns an unassigned escalation", async () => {
    const admin = callerFor(ctx, a.scope);
    await ctx.db.prisma.conversation.deleteMany({ where: { agentId: a.agentId } });
    const mine = await apiTurn("Mine");
    const theirs = await apiTurn("Theirs");
    const waiting = await apiTurn("I want to talk to a human");
    await admin.conversations.takeOver({ id: mine.conversationId });
    await admin.conversations.assign({ id: theirs.conversationId, assigneeId: colleague.id });

    const ids = async (assignee?: string) => (await admin.conversations.list({ assignee })).items.map((item) => item.id).sort();
    expect(await ids("mine")).toEqual([mine.conversationId]);
    expect(await ids("unassigned")).toEqual([waiting.conversationId]);
    expect(await ids(colleague.id)).toEqual([theirs.conversationId]);
    expect(await ids()).toEqual([mine.conversationId, theirs.conversationId, waiting.conversationId].sort());
    // Another workspace's person filters down to nothing.
    expect(await ids(b.scope.userId)).toEqual([]);

    await admin.conversations.reply({ id: waiting.conversationId, text: "Hi Ada, I'm here." });
    expect(await ids("unassigned")).toEqual([]);
    expect(await ids("mine")).toEqual([mine.conversationId, waiting.conversationId].sort());
  });

  it("the list shows the visitor's last message beside the conversation's last one", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Where is my invoice for October?");
    const item = (await admin.conversations.list()).items.find((row) => row.id === first.conversationId);
    expect(item?.lastVisitorMessage).toMatchObject({ role: "user", text: "Where is my invoice for October?" });
    expect(item?.lastMessage?.role).toBe("agent");
    expect(item?.visitorName).toBe("Ada");
  });
});

describe("search", () => {
  it("finds conversations by a word of a message (any case, accents, word prefixes), the visitor's identity and variables, within the filters", async () => {
    const ws = await createWorkspace(ctx, "search");
    const admin = callerFor(ctx, ws.scope);
    const searchAgent = { ...agent, id: ws.agentId, workspaceId: ws.scope.workspaceId };
    const turn = (message: string, extra: Record<string, unknown> = {}, channel: "api" | "widget" = "api") =>
      runTurn(ctx, searchAgent, { message, ...extra }, { channel });
    const invoice = await turn("My Invoice from Zürich is wrong", { visitor: { name: "Grace Hopper", email: "grace@navy.example" } });
    const refund = await turn("I would like a refund please", { clientVariables: { plan: "enterprise-gold" } }, "widget");
    await turn("Something else entirely");
    await runTurn(ctx, agent, { message: "invoice in another workspace" }, { channel: "api" });

    const found = async (q: string, filters: Record<string, unknown> = {}) =>
      (await admin.conversations.list({ q, ...filters })).items.map((item) => item.id);
    expect(await found("invoice")).toEqual([invoice.conversationId]);
    expect(await found("INVOIC")).toEqual([invoice.conversationId]);
    expect(await found("zurich wrong")).toEqual([invoice.conversationId]);
    expect(await found("navy.example")).toEqual([invoice.conversationId]);
    expect(await found("hopper")).toEqual([invoice.conversationId]);
    expect(await found("enterprise-gold")).toEqual([refund.conversationId]);
    expect(await found("refund", { channel: "widget" })).toEqual([refund.conversationId]);
    expect(await found("refund", { channel: "api" })).toEqual([]);
    expect(await found("refund", { status: "escalated" })).toEqual([]);
    expect(await found("refund", { assignee: "mine" })).toEqual([]);
    expect(await found("refund", { createdFrom: new Date(NOW.getTime() + 60_000).toISOString() })).toEqual([]);
    expect(await found("refund", { createdFrom: NOW.toISOString(), createdTo: new Date(NOW.getTime() + 1).toISOString() })).toEqual([
      refund.conversationId,
    ]);
    // The tag the panel names an anonymous visitor by, with or without "#", in any case.
    const tag = visitorTag(refund.conversationId);
    expect(await found(tag)).toEqual([refund.conversationId]);
    expect(await found(tag.slice(1).toLowerCase())).toEqual([refund.conversationId]);
    expect(await found(tag, { channel: "api" })).toEqual([]);
    expect(await found("nothing matches this")).toEqual([]);
    // %, _ and \ are characters, not patterns.
    expect(await found("%")).toEqual([]);
    await expect(admin.conversations.list({ q: "x".repeat(201) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("finds an old conversation past the newest window, and pages through the matches", async () => {
    const ws = await createWorkspace(ctx, "window");
    const admin = callerFor(ctx, ws.scope);
    const old = new Date("2026-01-01T00:00:00Z");
    const rare = await ctx.db.prisma.conversation.create({
      data: {
        agentId: ws.agentId,
        messageCount: 1,
        createdAt: old,
        updatedAt: old,
        messages: { create: [{ role: "user", text: "quetzal", sequence: 0, createdAt: old }] },
      },
    });
    await ctx.db.prisma.conversation.createMany({
      data: Array.from({ length: INBOX_SEARCH_WINDOW + 5 }, (_, index) => ({
        agentId: ws.agentId,
        visitorName: `Visitor ${index}`,
        createdAt: NOW,
        updatedAt: new Date(NOW.getTime() - index * 1000),
      })),
    });
    expect((await admin.conversations.list({ q: "quetzal" })).items.map((item) => item.id)).toEqual([rare.id]);
    expect((await admin.conversations.list({ q: visitorTag(rare.id) })).items.map((item) => item.id)).toEqual([rare.id]);

    const first = await admin.conversations.list({ q: "visitor 1", limit: 2 });
    expect(first.items.map((item) => item.visitorName)).toEqual(["Visitor 1", "Visitor 10"]);
    const second = await admin.conversations.list({ q: "visitor 1", limit: 2, cursor: first.nextCursor });
    expect(second.items.map((item) => item.visitorName)).toEqual(["Visitor 11", "Visitor 12"]);
  });
});

describe("live", () => {
  it("the visitor's channel hears the person's public name; the workspace's inbox channel hears every change", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await apiTurn("Hello");
    const onConversation: LiveEvent[] = [];
    const onInbox: LiveEvent[] = [];
    const stop = [
      ctx.live!.subscribe(first.conversationId, (event) => onConversation.push(event)),
      ctx.live!.subscribe(inboxChannel(a.scope.workspaceId), (event) => onInbox.push(event)),
      ctx.live!.subscribe(inboxChannel(b.scope.workspaceId), () => expect.fail("another workspace heard it")),
    ];
    await admin.conversations.takeOver({ id: first.conversationId });
    await admin.conversations.reply({ id: first.conversationId, text: "Hi!" });
    await admin.conversations.resolve({ id: first.conversationId });
    await apiTurn("Thanks", first.conversationId);
    for (const unsubscribe of stop) unsubscribe();

    expect(onConversation.map((event) => (event.type === "message" ? ["message", event.message.role] : [event.type, event]))).toEqual([
      [
        "status",
        { type: "status", status: "escalated", person: "Alex Admin", notice: "Alex Admin from our team has joined the conversation." },
      ],
      ["message", "human"],
      // Resolved reads `active` to the visitor: the agent answers the next message.
      ["status", { type: "status", status: "active", person: null, notice: null }],
      // ...and the widget shows the closing line and asks how it went.
      [
        "closing",
        {
          type: "closing",
          closing: { notice: "This conversation has been resolved. If you need anything else, just write here.", rating: null },
        },
      ],
    ]);
    expect(onInbox).toEqual([
      { type: "inbox", conversationId: first.conversationId },
      { type: "inbox", conversationId: first.conversationId },
      { type: "inbox", conversationId: first.conversationId },
      { type: "inbox", conversationId: first.conversationId, escalated: false },
    ]);
  });

  it("a turn that escalates tells the inbox so (the panel's notification)", async () => {
    const onInbox: LiveEvent[] = [];
    const stop = ctx.live!.subscribe(inboxChannel(a.scope.workspaceId), (event) => onInbox.push(event));
    const first = await apiTurn("I want to talk to a human");
    await apiTurn("Still there?", first.conversationId);
    stop();
    expect(onInbox).toEqual([
      { type: "inbox", conversationId: first.conversationId, escalated: true },
      { type: "inbox", conversationId: first.conversationId, escalated: false },
    ]);
  });
});

describe("permissions", () => {
  it("lives in one table; owners, admins and support may do every inbox action but the export, editors none", () => {
    expect(roleOf(a.scope)).toBe("owner");
    const inbox = Object.entries(PERMISSIONS).filter(([permission]) => permission.startsWith("inbox.") && permission !== "inbox.export");
    expect(inbox.length).toBe(8);
    for (const [, roles] of inbox) expect([...roles]).toEqual(["owner", "admin", "support"]);
    expect([...PERMISSIONS["inbox.export"]]).toEqual(["owner", "admin"]);
  });

  it("a change to the state a conversation has plans nothing", () => {
    expect(planTransition({ status: "resolved", assigneeId: null, joinedById: null }, { kind: "resolve" }, "u", NOW)).toBeNull();
    expect(planTransition({ status: "escalated", assigneeId: "u", joinedById: "u" }, { kind: "take_over" }, "u", NOW)).toBeNull();
    expect(planTransition({ status: "escalated", assigneeId: "v", joinedById: null }, { kind: "take_over" }, "u", NOW)).toMatchObject({
      status: "escalated",
      assigneeId: "u",
      activities: [{ kind: "taken_over", actorId: "u", assigneeId: "u" }],
    });
  });

  it("signed out, or from another site, nothing changes", async () => {
    const first = await apiTurn("Hello");
    await expect(callerFor(ctx, null).conversations.takeOver({ id: first.conversationId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(callerFor(ctx, a.scope, { sameOrigin: false }).conversations.resolve({ id: first.conversationId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await stored(first.conversationId)).toMatchObject({ status: "active", assigneeId: null });
  });
});
