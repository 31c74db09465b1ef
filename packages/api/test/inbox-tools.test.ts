// The inbox's working tools through the panel's procedures on a real database: internal notes
// (in the panel's timeline, never in what the visitor, the HTTP API or webhooks read) and saved
// replies with their placeholders.

import { createMemoryLiveBus, inboxChannel, type LiveEvent } from "@parley/core/widget";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
  ctx.live = createMemoryLiveBus();
  await ctx.db.prisma.user.update({ where: { id: a.scope.userId }, data: { name: "Alex Admin" } });
});

afterAll(async () => {
  await ctx?.close();
});

async function conversation(id: string, visitor: { visitorName?: string; visitorEmail?: string } = {}) {
  await ctx.db.prisma.conversation.create({
    data: {
      id,
      agentId: a.agentId,
      channel: "widget",
      messageCount: 1,
      ...visitor,
      messages: { create: { role: "user", text: "My invoice is wrong", sequence: 0 } },
    },
  });
  return id;
}

describe("internal notes", () => {
  it("are stored with their author, shown in the conversation, and announced to open panels", async () => {
    const id = await conversation("conv-note");
    const events: LiveEvent[] = [];
    const unsubscribe = await ctx.live!.subscribe(inboxChannel(a.scope.workspaceId), (event) => events.push(event));
    const admin = callerFor(ctx, a.scope);

    const note = await admin.conversations.addNote({ id, text: "  Finance approved the refund: NOTE-MARKER-7f3  " });
    expect(note).toEqual({
      id: expect.any(String),
      text: "Finance approved the refund: NOTE-MARKER-7f3",
      authorName: "Alex Admin",
      createdAt: NOW,
    });

    const detail = await admin.conversations.get({ id });
    expect(detail.notes).toEqual([note]);
    expect(events).toContainEqual({ type: "inbox", conversationId: id });
    await unsubscribe();
  });

  it("never reach the transcript, the conversation's state or a webhook", async () => {
    const id = await conversation("conv-note-private");
    const endpoint = await ctx.db.prisma.webhookEndpoint.create({
      data: { workspaceId: a.scope.workspaceId, url: "https://hooks.example.com/parley", secret: "s", eventTypes: [] },
    });
    await callerFor(ctx, a.scope).conversations.addNote({ id, text: "Private: PRIVATE-MARKER-91" });

    const row = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id }, include: { messages: true } });
    expect(row.messageCount).toBe(1);
    expect(row.messages.map((message) => message.text)).toEqual(["My invoice is wrong"]);
    expect(row.status).toBe("active");
    expect(row.assigneeId).toBeNull();
    const events = await ctx.db.prisma.webhookEvent.findMany({ where: { workspaceId: a.scope.workspaceId } });
    expect(events.filter((event) => JSON.stringify(event).includes("PRIVATE-MARKER-91"))).toEqual([]);
    await ctx.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });

  it("refuse an empty note, a note too long, and another workspace's conversation", async () => {
    const id = await conversation("conv-note-bad");
    const admin = callerFor(ctx, a.scope);
    await expect(admin.conversations.addNote({ id, text: "   " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Write a note"),
    });
    await expect(admin.conversations.addNote({ id, text: "x".repeat(5_001) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(callerFor(ctx, b.scope).conversations.addNote({ id, text: "Hello" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Conversation not found",
    });
    await expect(callerFor(ctx, null).conversations.addNote({ id, text: "Hello" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await ctx.db.prisma.conversationNote.count({ where: { conversationId: id } })).toBe(0);
  });
});

describe("saved replies", () => {
  it("are created, listed by title, changed and removed, within the workspace only", async () => {
    const admin = callerFor(ctx, a.scope);
    const refund = await admin.savedReplies.create({ title: "Refund sent", text: "Hi {{visitor.name|there}}, your refund is on its way." });
    const hello = await admin.savedReplies.create({ title: "Greeting", text: "Hello!" });
    expect((await admin.savedReplies.list()).map((reply) => reply.title)).toEqual(["Greeting", "Refund sent"]);
    expect(await callerFor(ctx, b.scope).savedReplies.list()).toEqual([]);

    const changed = await admin.savedReplies.update({ id: hello.id, title: "Greeting", text: "Hello, {{me.name}} here." });
    expect(changed.text).toBe("Hello, {{me.name}} here.");
    await expect(callerFor(ctx, b.scope).savedReplies.delete({ id: refund.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Saved reply not found",
    });
    expect(await admin.savedReplies.delete({ id: hello.id })).toEqual({ ok: true });
    expect((await admin.savedReplies.list()).map((reply) => reply.id)).toEqual([refund.id]);
    await admin.savedReplies.delete({ id: refund.id });
  });

  it("refuse a duplicate title and an unknown placeholder, naming what to use", async () => {
    const admin = callerFor(ctx, a.scope);
    const first = await admin.savedReplies.create({ title: "Closing", text: "Anything else?" });
    await expect(admin.savedReplies.create({ title: "Closing", text: "Bye" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "A saved reply with this title already exists",
    });
    await expect(admin.savedReplies.create({ title: "Typo", text: "Hi {{visitor.nmae}}" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(
        "Unknown placeholder {{visitor.nmae}}: use {{visitor.name}}, {{visitor.email}}, {{agent.name}}, {{me.name}}",
      ),
    });
    await expect(admin.savedReplies.create({ title: " ", text: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await admin.savedReplies.list()).map((reply) => reply.title)).toEqual(["Closing"]);
    await admin.savedReplies.delete({ id: first.id });
  });

  it("fill the conversation's visitor, agent and the person in, with fallbacks for what is unknown", async () => {
    const admin = callerFor(ctx, a.scope);
    const reply = await admin.savedReplies.create({
      title: "Full",
      text: "Hi {{visitor.name}}, we wrote to {{ visitor.email | your address }}. {{me.name}} of {{agent.name}}",
    });
    const known = await conversation("conv-fill-known", { visitorName: "Ada", visitorEmail: "ada@example.com" });
    const unknown = await conversation("conv-fill-unknown");
    expect(await admin.savedReplies.fill({ id: reply.id, conversationId: known })).toEqual({
      text: "Hi Ada, we wrote to ada@example.com. Alex Admin of alpha agent",
    });
    expect(await admin.savedReplies.fill({ id: reply.id, conversationId: unknown })).toEqual({
      text: "Hi, we wrote to your address. Alex Admin of alpha agent",
    });
    await expect(callerFor(ctx, b.scope).savedReplies.fill({ id: reply.id, conversationId: known })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
