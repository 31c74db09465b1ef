// The inbox's queue order and what the visitor is told after a handoff, through the panel's
// procedures and the HTTP API's turn on a real database: the visitor waiting longest comes first in
// every list (all, each filter, Escalated, the panel home) and pages keep that order; a turn that
// asks for a person starts the wait, a person's reply ends it; assigning a conversation tells the
// visitor nothing, taking it over or replying says who joined; until then the visitor reads that a
// person will reply, within the team's measured median first reply.

import type { MessagingAgent } from "@parley/core/agents";
import { escalatedReply, formatWithin, HANDOFF_TEXTS, handoffNotice, runTurn, typicalReplyMs } from "@parley/core/conversations";
import { createMemoryLiveBus, type LiveEvent } from "@parley/core/widget";
import { messagingAgent, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;
let agent: MessagingAgent;
const MINUTE = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const sam = { id: "alpha-sam", name: "Sam Support" };

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  ctx.live = createMemoryLiveBus();
  await ctx.db.prisma.user.create({ data: { ...sam, workspaceId: a.scope.workspaceId, email: "sam@example.com", passwordHash: "unused" } });
  await ctx.db.prisma.user.update({ where: { id: a.scope.userId }, data: { name: "Alex Admin" } });
  agent = messagingAgent({ id: a.agentId, workspaceId: a.scope.workspaceId, name: "alpha agent" });
});

afterAll(async () => {
  await ctx?.close();
});

function apiTurn(message: string, conversationId?: string) {
  return runTurn(ctx, agent, { message, ...(conversationId ? { conversationId } : {}) }, { channel: "api" });
}

async function stored(id: string) {
  return ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id }, select: { status: true, waitingSince: true, joinedById: true } });
}

describe("the words", () => {
  it("says who joined, else that a person will reply and how soon, rounded up", () => {
    expect(handoffNotice({ person: "Sam Support", typicalReplyMs: 4 * MINUTE })).toBe(
      "Sam Support from our team has joined the conversation.",
    );
    expect(handoffNotice({ person: null, typicalReplyMs: 3.2 * MINUTE })).toBe("A person will reply here; usually within 4 minutes.");
    expect(handoffNotice({ person: null, typicalReplyMs: null })).toBe("A person will reply here.");
    expect(escalatedReply({ person: null, typicalReplyMs: 20_000 })).toBe(
      "Thanks, your message has been added to the conversation. A person will reply here; usually within 1 minute.",
    );
    expect(escalatedReply({ person: "Sam Support", typicalReplyMs: null })).toBe(
      "Thanks, your message has been added to the conversation. Sam Support will reply here.",
    );
    expect([0, MINUTE, 59 * MINUTE, 61 * MINUTE, 47 * 60 * MINUTE, 50 * 60 * MINUTE].map(formatWithin)).toEqual([
      "1 minute",
      "1 minute",
      "59 minutes",
      "2 hours",
      "47 hours",
      "3 days",
    ]);
  });
});

describe("the team's measured reply time", () => {
  it("is the median first reply of the workspace's recent answered handoffs, and none with fewer than five", async () => {
    const ws = await createWorkspace(ctx, "timing");
    const handoff = async (escalatedMinutesAgo: number, repliedAfterMinutes: number | null, options: { test?: boolean } = {}) => {
      const escalatedAt = ago(escalatedMinutesAgo * MINUTE);
      await ctx.db.prisma.conversation.create({
        data: {
          agentId: ws.agentId,
          status: "resolved",
          escalatedAt,
          test: options.test ?? false,
          messageCount: repliedAfterMinutes === null ? 1 : 3,
          messages: {
            create: [
              // An earlier person's message, before the handoff: not this handoff's reply.
              { role: "user", text: "A person please", sequence: 0, createdAt: escalatedAt },
              ...(repliedAfterMinutes === null
                ? []
                : [
                    {
                      role: "human" as const,
                      text: "Hi, I am here",
                      sequence: 1,
                      createdAt: new Date(escalatedAt.getTime() + repliedAfterMinutes * MINUTE),
                    },
                    {
                      role: "human" as const,
                      text: "Anything else?",
                      sequence: 2,
                      createdAt: new Date(escalatedAt.getTime() + 90 * MINUTE),
                    },
                  ]),
            ],
          },
        },
      });
    };
    for (const minutes of [2, 3, 4, 30]) await handoff(100, minutes);
    await handoff(100, null);
    await handoff(100, 1, { test: true });
    // Four answered handoffs: too few to promise a time.
    expect(await typicalReplyMs(ctx.db, ws.scope.workspaceId, NOW)).toBeNull();
    await handoff(200, 6);
    // Older than the window: left out.
    await handoff(31 * 24 * 60, 1);
    // 2, 3, 4, 6, 30 minutes: the median is 4 (the one answered after half an hour does not move it).
    expect(await typicalReplyMs(ctx.db, ws.scope.workspaceId, NOW)).toBe(4 * MINUTE);
    // Another workspace has no answered handoffs.
    expect(await typicalReplyMs(ctx.db, b.scope.workspaceId, NOW)).toBeNull();
  });
});

describe("what the visitor is told", () => {
  it("an assignment alone is not a person joining; taking over and replying are", async () => {
    const admin = callerFor(ctx, a.scope);
    const asked = await apiTurn("I want to talk to a person");
    expect(asked).toMatchObject({ status: "escalated", handoffRequested: true });
    expect(await stored(asked.conversationId)).toEqual({ status: "escalated", waitingSince: NOW, joinedById: null });

    const heard: LiveEvent[] = [];
    const stop = ctx.live!.subscribe(asked.conversationId, (event) => heard.push(event));
    await admin.conversations.assign({ id: asked.conversationId, assigneeId: sam.id });
    // Nothing for the visitor: Sam has not opened it.
    expect(heard).toEqual([]);
    expect(await stored(asked.conversationId)).toEqual({ status: "escalated", waitingSince: NOW, joinedById: null });
    expect(await admin.conversations.get({ id: asked.conversationId })).toMatchObject({
      assignee: { id: sam.id, name: "Sam Support" },
      joinedBy: null,
      waitingSince: NOW,
    });
    const hello = await apiTurn("Hello? Is anyone there?", asked.conversationId);
    expect(hello.reply).toBe("Thanks, your message has been added to the conversation. A person will reply here.");

    // Sam replies: Sam joined (the visitor's widget is told, once), and the visitor no longer waits.
    await callerFor(ctx, { ...a.scope, userId: sam.id, role: "support" }).conversations.reply({
      id: asked.conversationId,
      text: "Hi, Sam here.",
    });
    expect(heard.map((event) => (event.type === "message" ? ["message", event.message.text] : [event.type, event]))).toEqual([
      [
        "status",
        { type: "status", status: "escalated", person: "Sam Support", notice: "Sam Support from our team has joined the conversation." },
      ],
      ["message", "Hi, Sam here."],
    ]);
    expect(await stored(asked.conversationId)).toEqual({ status: "escalated", waitingSince: null, joinedById: sam.id });
    expect(await admin.conversations.get({ id: asked.conversationId })).toMatchObject({
      joinedBy: { id: sam.id, name: "Sam Support" },
      waitingSince: null,
    });
    const next = await apiTurn("Great, thanks", asked.conversationId);
    expect(next.reply).toBe("Thanks, your message has been added to the conversation. Sam Support will reply here.");
    // The visitor wrote again after Sam's reply: waiting again, since then.
    expect((await stored(asked.conversationId)).waitingSince).toEqual(NOW);

    // Reassigned to someone who has not joined: the visitor no longer hears Sam's name.
    heard.length = 0;
    await admin.conversations.assign({ id: asked.conversationId, assigneeId: a.scope.userId });
    expect(heard).toEqual([{ type: "status", status: "escalated", person: null, notice: "A person will reply here." }]);
    // Taking over what is assigned to oneself is joining: now the visitor hears the name.
    heard.length = 0;
    await admin.conversations.takeOver({ id: asked.conversationId });
    expect(heard).toEqual([
      { type: "status", status: "escalated", person: "Alex Admin", notice: "Alex Admin from our team has joined the conversation." },
    ]);
    expect(await stored(asked.conversationId)).toMatchObject({ joinedById: a.scope.userId });
    // Again: nothing changes, nothing is said.
    heard.length = 0;
    await admin.conversations.takeOver({ id: asked.conversationId });
    expect(heard).toEqual([]);
    stop();
  });

  it("taking over tells the visitor who joined; handing back ends the wait", async () => {
    const admin = callerFor(ctx, a.scope);
    const asked = await apiTurn("Can I speak to a human?");
    const heard: LiveEvent[] = [];
    const stop = ctx.live!.subscribe(asked.conversationId, (event) => heard.push(event));
    await admin.conversations.takeOver({ id: asked.conversationId });
    expect(heard).toEqual([
      { type: "status", status: "escalated", person: "Alex Admin", notice: "Alex Admin from our team has joined the conversation." },
    ]);
    // Taken over, not yet answered: the visitor still waits.
    expect(await stored(asked.conversationId)).toEqual({ status: "escalated", waitingSince: NOW, joinedById: a.scope.userId });
    await admin.conversations.handBack({ id: asked.conversationId });
    expect(await stored(asked.conversationId)).toEqual({ status: "active", waitingSince: null, joinedById: null });
    stop();
  });

  it("promises the team's measured time once it has answered five handoffs", async () => {
    const ws = await createWorkspace(ctx, "measured");
    const measured = messagingAgent({ id: ws.agentId, workspaceId: ws.scope.workspaceId, name: "measured agent" });
    for (const minutes of [5, 6, 7, 8, 9]) {
      const escalatedAt = ago(60 * MINUTE);
      await ctx.db.prisma.conversation.create({
        data: {
          agentId: ws.agentId,
          status: "resolved",
          escalatedAt,
          messageCount: 1,
          messages: { create: [{ role: "human", text: "Hi", sequence: 0, createdAt: new Date(escalatedAt.getTime() + minutes * MINUTE) }] },
        },
      });
    }
    const first = await runTurn(ctx, measured, { message: "I want to talk to a person" }, { channel: "api" });
    const again = await runTurn(ctx, measured, { message: "Hello?", conversationId: first.conversationId }, { channel: "api" });
    expect(again.reply).toBe(
      "Thanks, your message has been added to the conversation. A person will reply here; usually within 7 minutes.",
    );
    expect(again.reply).toContain(HANDOFF_TEXTS.added);
  });
});

describe("the queue order", () => {
  it("puts the longest wait first in every list, then the most recently active, and pages keep the order", async () => {
    const ws = await createWorkspace(ctx, "queue");
    const admin = callerFor(ctx, ws.scope);
    const make = (
      id: string,
      data: { status?: "active" | "escalated" | "resolved"; waitingMinutes?: number; updatedMinutesAgo: number; assigneeId?: string },
    ) =>
      ctx.db.prisma.conversation.create({
        data: {
          id,
          agentId: ws.agentId,
          status: data.status ?? "active",
          assigneeId: data.assigneeId ?? null,
          escalatedAt: data.waitingMinutes === undefined ? null : ago(data.waitingMinutes * MINUTE),
          waitingSince: data.waitingMinutes === undefined ? null : ago(data.waitingMinutes * MINUTE),
          createdAt: ago(600 * MINUTE),
          updatedAt: ago(data.updatedMinutesAgo * MINUTE),
        },
      });
    // Stored times, not sleeps: "waiting just now" was active last, so activity order would list it first.
    await make("queue-just-now", { status: "escalated", waitingMinutes: 0, updatedMinutesAgo: 0 });
    await make("queue-2-min", { status: "escalated", waitingMinutes: 2, updatedMinutesAgo: 1 });
    await make("queue-15-min-assigned", { status: "escalated", waitingMinutes: 15, updatedMinutesAgo: 14, assigneeId: ws.scope.userId });
    await make("queue-answered", { status: "escalated", updatedMinutesAgo: 3, assigneeId: ws.scope.userId });
    await make("queue-active-recent", { updatedMinutesAgo: 5 });
    await make("queue-active-old", { updatedMinutesAgo: 50 });
    await make("queue-resolved", { status: "resolved", updatedMinutesAgo: 30 });

    const ids = async (input: Parameters<typeof admin.conversations.list>[0] = {}) =>
      (await admin.conversations.list(input)).items.map((item) => item.id);
    expect(await ids()).toEqual([
      "queue-15-min-assigned",
      "queue-2-min",
      "queue-just-now",
      "queue-answered",
      "queue-active-recent",
      "queue-resolved",
      "queue-active-old",
    ]);
    expect(await ids({ status: "escalated" })).toEqual(["queue-15-min-assigned", "queue-2-min", "queue-just-now", "queue-answered"]);
    expect(await ids({ status: "escalated", assignee: "unassigned" })).toEqual(["queue-2-min", "queue-just-now"]);
    expect(await ids({ assignee: "mine" })).toEqual(["queue-15-min-assigned", "queue-answered"]);
    expect((await admin.home.get()).waiting.oldest.map((item) => item.conversationId)).toEqual(["queue-2-min", "queue-just-now"]);

    // Pages of two: each row once, in the same order, across the waiting / not waiting boundary.
    const paged: string[] = [];
    let cursor: string | null = null;
    const pages: string[][] = [];
    do {
      const page: Awaited<ReturnType<typeof admin.conversations.list>> = await admin.conversations.list({ limit: 2, cursor });
      pages.push(page.items.map((item) => item.id));
      paged.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual([
      ["queue-15-min-assigned", "queue-2-min"],
      ["queue-just-now", "queue-answered"],
      ["queue-active-recent", "queue-resolved"],
      ["queue-active-old"],
    ]);
    expect(paged).toEqual(await ids());
    // A cursor of another workspace ends the list instead of reading it.
    expect((await callerFor(ctx, b.scope).conversations.list({ cursor: "queue-2-min" })).items).toEqual([]);
  });
});
