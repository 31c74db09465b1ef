// Which changes emit webhook events, and that the outbox row commits and rolls back with them
// (spec 6: "The HTTP API emits no events of its own"). Turns of the messages API emit
// nothing; widget-channel turns and panel actions (an admin's reply or status change, also on a
// conversation that started on the HTTP API; publishing) do. Real database, either mode.

import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, messageInput, type TestAgent } from "@parley/testing/messaging";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MessagingAgent } from "../src/agents/keys/message-auth.ts";
import { changeConversation, replyToConversation } from "../src/conversations/inbox/inbox.ts";
import { type SendMessageInput, sendMessage } from "../src/conversations/turn/send-message.ts";
import { IdempotentRaceLost, runTurn } from "../src/conversations/turn/turn.ts";
import { createArticle, setArticlePublished } from "../src/knowledge/articles/articles.ts";
import { createEndpoint } from "../src/webhooks/endpoints.ts";
import { recordWebhookEvents } from "../src/webhooks/events.ts";
import { WEBHOOK_PAYLOAD_SCHEMAS } from "../src/webhooks/schemas.ts";
import { WEBHOOK_EVENT_TYPES } from "../src/webhooks/types.ts";

const WORKSPACE = "ws-demo";
/** The seeded admin, as the panel calls core (their changes are audited). */
const ADMIN = { userId: "user-admin", workspaceId: WORKSPACE, role: "owner" } as const;
let ctx: TestContext;
let agent: TestAgent;
let messaging: MessagingAgent;

beforeAll(async () => {
  ctx = await createMessagingContext();
  agent = await createAgentWithKey(ctx);
  messaging = messagingAgent({ id: agent.id, workspaceId: "ws-demo" });
});

afterAll(async () => {
  await ctx.close();
});

afterEach(async () => {
  await ctx.db.prisma.webhookEvent.deleteMany({});
  await ctx.db.prisma.webhookEndpoint.deleteMany({});
});

async function endpoint(fields: { agentIds?: string[]; eventTypes?: (typeof WEBHOOK_EVENT_TYPES)[number][]; enabled?: boolean } = {}) {
  const { endpoint: created } = await createEndpoint(
    ctx.db,
    ADMIN,
    {
      url: "https://hooks.example.com/parley",
      description: "",
      allAgents: !fields.agentIds,
      agentIds: fields.agentIds ?? [],
      eventTypes: fields.eventTypes ?? [...WEBHOOK_EVENT_TYPES],
      enabled: fields.enabled ?? true,
    },
    { policy: { allowLocal: false, resolve: async () => ["93.184.216.34"] }, now: new Date() },
  );
  return created;
}

interface EventPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { conversation?: Record<string, unknown> };
}

/** The recorded events, oldest first, as their JSON bodies; each must match its documented schema exactly. */
async function events(): Promise<EventPayload[]> {
  const rows = await ctx.db.prisma.webhookEvent.findMany({ orderBy: { id: "asc" } });
  return rows.map((row) => {
    const payload = JSON.parse(row.payload) as EventPayload;
    const schema = WEBHOOK_PAYLOAD_SCHEMAS[payload.type as keyof typeof WEBHOOK_PAYLOAD_SCHEMAS];
    expect(schema, payload.type).toBeDefined();
    expect(() => schema.parse(payload), row.payload).not.toThrow();
    return payload;
  });
}

async function deliveriesCount(): Promise<number> {
  return ctx.db.prisma.webhookDelivery.count();
}

async function apiTurn(body: Record<string, unknown>): Promise<{ conversationId: string; status: string }> {
  const input: SendMessageInput = messageInput(agent, body);
  const result = await sendMessage(ctx, input);
  expect(result.status).toBe(200);
  return result.json as { conversationId: string; status: string };
}

describe("the HTTP API emits no events", () => {
  it("writes no event for API turns, new or continued, escalating or not, even with endpoints taking everything", async () => {
    await endpoint();
    const first = await apiTurn({ message: "How do I reset my password?", visitor: { name: "Ada" } });
    await apiTurn({ message: "Thanks", conversationId: first.conversationId });
    const escalated = await apiTurn({ message: "Can I talk to a human?", conversationId: first.conversationId });
    expect(escalated.status).toBe("escalated");
    await apiTurn({ message: "Can I talk to a human?" });
    expect(await events()).toEqual([]);
    expect(await deliveriesCount()).toBe(0);
  });
});

describe("widget-channel turns emit events", () => {
  it("conversation.created and conversation.message for a new conversation, then one message per turn", async () => {
    const created = await endpoint();
    const first = await runTurn(
      ctx,
      messaging,
      { message: "How do I reset my password?", visitor: { name: "Ada", email: "ada@example.com" }, clientVariables: { plan: "pro" } },
      { channel: "widget" },
    );
    let recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual(["conversation.created", "conversation.message"]);
    const conversation = {
      id: first.conversationId,
      agentId: agent.id,
      channel: "widget",
      status: "active",
      visitor: { name: "Ada", email: "ada@example.com", phone: null },
    };
    expect(recorded[0]!.data).toEqual({
      conversation: { ...conversation, clientVariables: { plan: "pro" }, createdAt: recorded[0]!.timestamp },
    });
    expect(recorded[1]!.data).toEqual({
      conversation,
      messages: [
        { role: "user", text: "How do I reset my password?", sequence: 0, createdAt: recorded[1]!.timestamp },
        {
          role: "agent",
          text: first.reply,
          sequence: 1,
          createdAt: recorded[1]!.timestamp,
          tokenUsage: first.tokenUsage,
          toolCalls: first.toolCalls,
          richContent: first.richContent,
        },
      ],
      handoffRequested: false,
      // Typed in the widget (a spoken turn says "voice").
      channel: "widget",
    });
    // One delivery per event for the endpoint, due now.
    const deliveries = await ctx.db.prisma.webhookDelivery.findMany();
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((delivery) => delivery.endpointId === created.id && delivery.status === "pending")).toBe(true);

    await ctx.db.prisma.webhookEvent.deleteMany({});
    await runTurn(ctx, messaging, { message: "And billing?", conversationId: first.conversationId }, { channel: "widget" });
    recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual(["conversation.message"]);
    expect((recorded[0]!.data.messages as Array<{ sequence: number }>).map((message) => message.sequence)).toEqual([2, 3]);
  });

  it("a turn asking for a person adds conversation.escalated, and conversation.status_changed on an existing conversation", async () => {
    await endpoint();
    const first = await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget" });
    await ctx.db.prisma.webhookEvent.deleteMany({});
    const escalated = await runTurn(
      ctx,
      messaging,
      { message: "Can I talk to a human?", conversationId: first.conversationId },
      { channel: "widget" },
    );
    expect(escalated.status).toBe("escalated");
    const recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual(["conversation.message", "conversation.escalated", "conversation.status_changed"]);
    expect(recorded[1]!.data).toMatchObject({
      conversation: { id: first.conversationId, status: "escalated" },
      reason: "handoff_requested",
    });
    expect(recorded[2]!.data).toMatchObject({ previousStatus: "active", status: "escalated", changedBy: "turn" });

    // A new conversation that starts with the request: created (escalated), message, escalated.
    await ctx.db.prisma.webhookEvent.deleteMany({});
    await runTurn(ctx, messaging, { message: "Can I talk to a human?" }, { channel: "widget" });
    expect((await events()).map((event) => event.type)).toEqual(["conversation.created", "conversation.message", "conversation.escalated"]);
  });

  it("queues nothing (and writes no event) when no enabled endpoint takes the event", async () => {
    await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget" });
    await endpoint({ enabled: false });
    await endpoint({ eventTypes: ["help.article.published"] });
    await endpoint({ agentIds: ["demo"] });
    await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget" });
    expect(await events()).toEqual([]);
    expect(await deliveriesCount()).toBe(0);

    const mine = await endpoint({ agentIds: [agent.id], eventTypes: ["conversation.created"] });
    await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget" });
    expect((await events()).map((event) => event.type)).toEqual(["conversation.created"]);
    expect((await ctx.db.prisma.webhookDelivery.findMany()).map((delivery) => delivery.endpointId)).toEqual([mine.id]);
  });
});

describe("panel actions emit events", () => {
  it("on a conversation of the HTTP API: take over, reply, hand back, reassign, resolve", async () => {
    await endpoint();
    const started = await apiTurn({ message: "Hello", visitor: { name: "Bob" } });
    expect(await events()).toEqual([]);
    const admin = { workspaceId: WORKSPACE, userId: "user-admin", role: "owner" as const };
    const colleague = await ctx.db.prisma.user.create({
      data: { id: "user-colleague", workspaceId: WORKSPACE, email: "sam@example.com", name: "Sam", passwordHash: "unused" },
    });

    await changeConversation(ctx.db, admin, started.conversationId, { kind: "take_over" });
    await replyToConversation(ctx.db, admin, { id: started.conversationId, text: "Hi Bob, a person here." });
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "hand_back" });
    // Asking for the state it already has is no change: no event.
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "hand_back" });
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "assign", assigneeId: colleague.id });
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "assign", assigneeId: colleague.id });
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "resolve" });
    await changeConversation(ctx.db, admin, started.conversationId, { kind: "resolve" });

    const recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual([
      "conversation.status_changed",
      "conversation.assigned",
      "conversation.message",
      "conversation.status_changed",
      "conversation.assigned",
      "conversation.resolved",
    ]);
    const conversation = {
      id: started.conversationId,
      agentId: agent.id,
      channel: "api",
      visitor: { name: "Bob", email: null, phone: null },
    };
    const demoAdmin = { id: "user-admin", name: "Demo admin" };
    expect(recorded[0]!.data).toEqual({
      conversation: { ...conversation, status: "escalated" },
      previousStatus: "active",
      status: "escalated",
      changedBy: "admin",
    });
    expect(recorded[1]!.data).toEqual({
      conversation: { ...conversation, status: "escalated" },
      assignee: demoAdmin,
      assignedBy: demoAdmin,
    });
    expect(recorded[2]!.data).toEqual({
      conversation: { ...conversation, status: "escalated" },
      messages: [{ role: "human", text: "Hi Bob, a person here.", sequence: 2, createdAt: expect.any(String) }],
    });
    expect(recorded[3]!.data).toMatchObject({ previousStatus: "escalated", status: "active", changedBy: "admin" });
    expect(recorded[4]!.data).toEqual({
      conversation: { ...conversation, status: "active" },
      assignee: { id: colleague.id, name: "Sam" },
      assignedBy: demoAdmin,
    });
    // Resolved stays within the spec's vocabulary on the wire: the conversation reads `active`.
    expect(recorded[5]!.data).toEqual({ conversation: { ...conversation, status: "active" }, resolvedBy: demoAdmin });
  });

  it("publishing and unpublishing an article (once per real change), for the agents showing it", async () => {
    await endpoint({ eventTypes: ["help.article.published", "help.article.unpublished"] });
    const other = await endpoint({ agentIds: [agent.id] }); // the test agent shows src-start and src-billing
    const now = new Date("2026-11-20T12:00:00.000Z");
    const draft = await createArticle(ctx.db, ADMIN, { sourceId: "src-internal", title: "Internal", content: "Body" }, now);
    expect(await events()).toEqual([]);

    await setArticlePublished(ctx.db, ADMIN, { id: draft.id, published: true }, now);
    await setArticlePublished(ctx.db, ADMIN, { id: draft.id, published: true }, now);
    await setArticlePublished(ctx.db, ADMIN, { id: draft.id, published: false }, now);
    await setArticlePublished(ctx.db, ADMIN, { id: draft.id, published: false }, now);
    const recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual(["help.article.published", "help.article.unpublished"]);
    expect(recorded[0]!.data).toEqual({
      article: { id: draft.id, sourceId: "src-internal", title: "Internal", publishedAt: now.toISOString(), agentIds: [], published: true },
    });
    expect(recorded[1]!.data).toMatchObject({ article: { id: draft.id, published: false, publishedAt: null } });
    // src-internal is linked to no agent: the endpoint covering only the test agent got nothing.
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpointId: other.id } })).toBe(0);

    await ctx.db.prisma.webhookEvent.deleteMany({});
    const published = await createArticle(ctx.db, ADMIN, { sourceId: "src-start", title: "New", content: "Body", published: true }, now);
    const [event] = await events();
    expect(event).toMatchObject({ type: "help.article.published", data: { article: { id: published.id } } });
    expect((event!.data.article as { agentIds: string[] }).agentIds).toContain(agent.id);
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpointId: other.id } })).toBe(1);
  });
});

describe("the outbox commits and rolls back with the change", () => {
  it("a widget turn rolled back leaves neither the conversation nor its events", async () => {
    await endpoint();
    // A concurrent request already stored this Idempotency-Key: the turn's transaction fails at its end.
    await ctx.db.prisma.idempotencyRecord.create({
      data: { agentId: agent.id, key: "taken", requestHash: "x", status: 200, body: {} },
    });
    const conversationsBefore = await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } });
    await expect(
      runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget", idempotency: { key: "taken", hash: "y" } }),
    ).rejects.toBeInstanceOf(IdempotentRaceLost);
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(conversationsBefore);
    expect(await events()).toEqual([]);
    expect(await deliveriesCount()).toBe(0);

    await runTurn(ctx, messaging, { message: "Hello" }, { channel: "widget", idempotency: { key: "free", hash: "y" } });
    expect(await ctx.db.prisma.conversation.count({ where: { agentId: agent.id } })).toBe(conversationsBefore + 1);
    expect((await events()).map((event) => event.type)).toEqual(["conversation.created", "conversation.message"]);
  });

  it("rows recorded in a transaction that fails are gone; in one that commits, they stay", async () => {
    await endpoint();
    const record = (tx: Parameters<typeof recordWebhookEvents>[0]) =>
      recordWebhookEvents(tx, { workspaceId: WORKSPACE, agentIds: [agent.id] }, [{ type: "conversation.message", data: {} }], new Date());
    await expect(
      ctx.db.prisma.$transaction(async (tx) => {
        expect(await record(tx)).toBe(1);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await events()).toEqual([]);
    expect(await deliveriesCount()).toBe(0);

    await ctx.db.prisma.$transaction(async (tx) => {
      await record(tx);
    });
    expect(await ctx.db.prisma.webhookEvent.count()).toBe(1);
    expect(await deliveriesCount()).toBe(1);
  });
});
