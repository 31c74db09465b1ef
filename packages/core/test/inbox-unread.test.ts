// Per-person unread state and the inbox's counts on a real database: a visitor message makes a
// conversation unread for each person until they open it, for that person only; the Mine and
// Unassigned counts are exact (also past the alerts' list cap); only people who may read the
// workspace's inbox get its unread state and counts.
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConversations, listConversationsInput } from "../src/conversations/inbox/conversations.ts";
import { inboxCounts } from "../src/conversations/inbox/counts.ts";
import { changeConversation } from "../src/conversations/inbox/inbox.ts";
import { markConversationRead } from "../src/conversations/inbox/unread.ts";
import { INBOX_ATTENTION_MAX } from "../src/conversations/limits.ts";
import type { AdminScope } from "../src/people/scope.ts";

let ctx: TestContext;
const lead: AdminScope = { userId: "u-lead", workspaceId: "ws-a", role: "owner" };
const sam: AdminScope = { userId: "u-sam", workspaceId: "ws-a", role: "support" };
const editor: AdminScope = { userId: "u-editor", workspaceId: "ws-a", role: "editor" };
const stranger: AdminScope = { userId: "u-stranger", workspaceId: "ws-b", role: "owner" };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));

let sequences = new Map<string, number>();

async function conversation(id: string, fields: { status?: "active" | "escalated" | "resolved"; test?: boolean; agentId?: string } = {}) {
  await ctx.db.prisma.conversation.create({
    data: {
      id,
      agentId: fields.agentId ?? "agent-a",
      channel: "widget",
      status: fields.status ?? "active",
      test: fields.test ?? false,
      visitorName: `Visitor ${id}`,
      escalatedAt: fields.status === "escalated" ? at(0) : null,
      createdAt: at(0),
      updatedAt: at(0),
    },
  });
}

/** A message, as the turn stores it (the next sequence, the count kept). */
async function message(conversationId: string, role: "user" | "agent" | "human", createdAt: Date) {
  const sequence = sequences.get(conversationId) ?? 0;
  sequences.set(conversationId, sequence + 1);
  await ctx.db.prisma.message.create({ data: { conversationId, role, text: `${role} ${sequence}`, sequence, createdAt } });
  await ctx.db.prisma.conversation.update({ where: { id: conversationId }, data: { messageCount: sequence + 1, updatedAt: createdAt } });
}

async function unreadInList(scope: AdminScope) {
  const page = await listConversations(ctx, scope, listConversationsInput.parse({ limit: 100 }));
  return Object.fromEntries(page.items.map((item) => [item.id, item.unread]));
}

beforeAll(async () => {
  ctx = await createTestContext({ now: () => at(30) });
  sequences = new Map();
  await ctx.db.prisma.workspace.create({ data: { id: "ws-a", name: "A" } });
  await ctx.db.prisma.workspace.create({ data: { id: "ws-b", name: "B" } });
  for (const scope of [lead, sam, editor, stranger]) {
    await ctx.db.prisma.user.create({
      data: {
        id: scope.userId,
        workspaceId: scope.workspaceId,
        email: `${scope.userId}@example.com`,
        role: scope.role,
        passwordHash: "x",
        createdAt: at(0),
      },
    });
  }
  await ctx.db.prisma.agent.create({ data: { id: "agent-a", workspaceId: "ws-a", name: "A support" } });
  await ctx.db.prisma.agent.create({ data: { id: "agent-b", workspaceId: "ws-b", name: "B support" } });

  // Sam's: the visitor wrote, the agent answered.
  await conversation("c-sam");
  await message("c-sam", "user", at(1));
  await message("c-sam", "agent", at(2));
  await changeConversation(ctx.db, lead, "c-sam", { kind: "assign", assigneeId: sam.userId }, at(3));
  // Sam's too, but only the agent has written (a greeting): nothing to read.
  await conversation("c-sam-quiet");
  await message("c-sam-quiet", "agent", at(1));
  await changeConversation(ctx.db, lead, "c-sam-quiet", { kind: "assign", assigneeId: sam.userId }, at(3));
  // Sam's, resolved: unread in the list, not counted as needing Sam.
  await conversation("c-sam-done", { status: "resolved" });
  await message("c-sam-done", "user", at(1));
  await ctx.db.prisma.conversation.update({ where: { id: "c-sam-done" }, data: { assigneeId: sam.userId } });
  // A test chat assigned to Sam: never in the inbox, never counted.
  await conversation("c-sam-test", { test: true });
  await message("c-sam-test", "user", at(1));
  await ctx.db.prisma.conversation.update({ where: { id: "c-sam-test" }, data: { assigneeId: sam.userId } });
  // Nobody's: an escalation waiting for a person.
  await conversation("c-queue", { status: "escalated" });
  await message("c-queue", "user", at(4));
  // Another workspace's, with a visitor message.
  await conversation("c-other", { agentId: "agent-b" });
  await message("c-other", "user", at(1));
});

afterAll(async () => {
  await ctx.close();
});

describe("unread state", () => {
  it("is unread for everyone who has not opened it since the visitor wrote, and only where the visitor wrote", async () => {
    expect(await unreadInList(sam)).toEqual({ "c-sam": true, "c-sam-quiet": false, "c-sam-done": true, "c-queue": true });
    expect(await unreadInList(lead)).toEqual({ "c-sam": true, "c-sam-quiet": false, "c-sam-done": true, "c-queue": true });
  });

  it("is read for the person who opened it, not for the others, until the visitor writes again", async () => {
    await expect(markConversationRead(ctx.db, sam, "c-sam", at(5))).resolves.toEqual({ ok: true });
    expect((await unreadInList(sam))["c-sam"]).toBe(false);
    expect((await unreadInList(lead))["c-sam"]).toBe(true);
    const stored = await ctx.db.prisma.conversationView.findMany({ where: { conversationId: "c-sam" } });
    expect(stored).toEqual([{ userId: sam.userId, conversationId: "c-sam", viewedAt: at(5) }]);

    // The team's own reply is not something to read; the visitor's next message is.
    await message("c-sam", "human", at(6));
    expect((await unreadInList(sam))["c-sam"]).toBe(false);
    await message("c-sam", "user", at(7));
    expect((await unreadInList(sam))["c-sam"]).toBe(true);
    expect((await inboxCounts(ctx.db, sam)).mine).toBe(1);

    // Opening it again moves the view (one row per person and conversation).
    await markConversationRead(ctx.db, sam, "c-sam", at(8));
    expect((await unreadInList(sam))["c-sam"]).toBe(false);
    expect(await ctx.db.prisma.conversationView.count({ where: { conversationId: "c-sam" } })).toBe(1);
  });
});

describe("counts", () => {
  it("counts Mine (assigned, open, unread for me) and Unassigned (escalations nobody took) exactly, per person", async () => {
    await ctx.db.prisma.conversationView.deleteMany({});
    const counts = await inboxCounts(ctx.db, sam);
    // c-sam only: c-sam-quiet has no visitor message, c-sam-done is resolved, c-sam-test a test chat.
    expect(counts.mine).toBe(1);
    expect(counts.unassigned).toBe(1);
    expect(counts.oldestEscalatedAt).toEqual(at(0));
    expect(counts.assigned.map((row) => [row.id, row.unread, row.lastVisitorMessageAt])).toEqual([
      ["c-sam", true, at(7)],
      ["c-sam-quiet", false, null],
    ]);
    // Assigned by the lead: an assignment Sam is alerted to.
    expect(counts.assigned[0]).toMatchObject({ visitorName: "Visitor c-sam", visitorEmail: null, firstPageUrl: null, selfAssigned: false });

    // The lead has nothing assigned; the queue is the team's.
    expect(await inboxCounts(ctx.db, lead)).toEqual({ mine: 0, unassigned: 1, oldestEscalatedAt: at(0), assigned: [] });

    await markConversationRead(ctx.db, sam, "c-sam", at(9));
    expect((await inboxCounts(ctx.db, sam)).mine).toBe(0);
    expect((await inboxCounts(ctx.db, sam)).assigned.find((row) => row.id === "c-sam")?.unread).toBe(false);

    // Taking the escalation over makes it the lead's: in their Mine (they have not opened it since
    // the visitor wrote), out of Unassigned.
    await changeConversation(ctx.db, lead, "c-queue", { kind: "take_over" }, at(10));
    expect(await inboxCounts(ctx.db, lead)).toMatchObject({ mine: 1, unassigned: 0, oldestEscalatedAt: null });
    // Taken by the lead themselves: no alert for their own action (in another tab).
    expect((await inboxCounts(ctx.db, lead)).assigned).toMatchObject([{ id: "c-queue", unread: true, selfAssigned: true }]);
  });

  it("stays exact past the alerts' list cap", async () => {
    const many = INBOX_ATTENTION_MAX + 5;
    for (let index = 0; index < many; index++) {
      const id = `c-bulk-${String(index).padStart(3, "0")}`;
      await conversation(id);
      await message(id, "user", at(12));
      await ctx.db.prisma.conversation.update({ where: { id }, data: { assigneeId: sam.userId } });
    }
    const counts = await inboxCounts(ctx.db, sam);
    expect(counts.mine).toBe(many);
    expect(counts.assigned).toHaveLength(INBOX_ATTENTION_MAX);
    await ctx.db.prisma.conversation.deleteMany({ where: { id: { startsWith: "c-bulk-" } } });
    expect((await inboxCounts(ctx.db, sam)).mine).toBe(0);
  });
});

describe("visibility", () => {
  it("refuses people of another workspace and roles without the inbox", async () => {
    await expect(markConversationRead(ctx.db, stranger, "c-sam", at(13))).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    expect(await ctx.db.prisma.conversationView.count({ where: { userId: stranger.userId } })).toBe(0);
    // The other workspace's own conversation is theirs to read; ws-a's unread state never shows there.
    expect(await unreadInList(stranger)).toEqual({ "c-other": true });
    expect(await inboxCounts(ctx.db, stranger)).toEqual({ mine: 0, unassigned: 0, oldestEscalatedAt: null, assigned: [] });

    await expect(markConversationRead(ctx.db, editor, "c-sam", at(13))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(inboxCounts(ctx.db, editor)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a conversation assigned to a person of another workspace is not counted for them", async () => {
    // Not reachable through the inbox (assign checks the team), so written directly: the rule is
    // the workspace of the conversation's agent, not the assignee column alone.
    await ctx.db.prisma.conversation.update({ where: { id: "c-other" }, data: { assigneeId: sam.userId } });
    expect((await inboxCounts(ctx.db, sam)).assigned.map((row) => row.id)).not.toContain("c-other");
    expect((await inboxCounts(ctx.db, sam)).mine).toBe(0);
    await ctx.db.prisma.conversation.update({ where: { id: "c-other" }, data: { assigneeId: null } });
  });
});

describe("a newcomer", () => {
  it("starts with nothing unread: what visitors wrote before the person joined counts as read", async () => {
    const newcomer: AdminScope = { userId: "u-new", workspaceId: "ws-a", role: "support" };
    await ctx.db.prisma.user.create({
      data: { id: newcomer.userId, workspaceId: "ws-a", email: "new@example.com", role: "support", passwordHash: "x", createdAt: at(20) },
    });
    expect(Object.values(await unreadInList(newcomer)).some(Boolean)).toBe(false);
    await ctx.db.prisma.conversation.update({ where: { id: "c-sam-quiet" }, data: { assigneeId: newcomer.userId } });
    await ctx.db.prisma.conversation.update({ where: { id: "c-sam" }, data: { assigneeId: newcomer.userId } });
    expect(await inboxCounts(ctx.db, newcomer)).toMatchObject({ mine: 0 });
    // The visitor writes after they joined: theirs to read.
    await message("c-sam", "user", at(21));
    expect((await unreadInList(newcomer))["c-sam"]).toBe(true);
    expect(await inboxCounts(ctx.db, newcomer)).toMatchObject({ mine: 1 });
  });
});
