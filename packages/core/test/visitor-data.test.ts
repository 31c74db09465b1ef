// The visitor's data on a real database: the JSON export (one conversation, or every conversation
// of an email address), and erasure, which leaves no trace of the visitor's text in any column of
// any table (a scan of the whole schema for a unique marker) while every count and usage stays.

import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, messageInput, type TestAgent } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyToConversation } from "../src/conversations/inbox/inbox.ts";
import { addNote } from "../src/conversations/inbox/notes.ts";
import { sendMessage } from "../src/conversations/turn/send-message.ts";
import { runTurn } from "../src/conversations/turn/turn.ts";
import { eraseVisitorData, eraseVisitorInput, exportVisitorData, parseVisitorTargetQuery } from "../src/conversations/visitor-data.ts";
import type { AdminScope } from "../src/people/scope.ts";
import { AppError } from "../src/platform/errors.ts";
import type { HttpResult } from "../src/platform/results.ts";
import { createEndpoint } from "../src/webhooks/endpoints.ts";
import { WEBHOOK_EVENT_TYPES } from "../src/webhooks/types.ts";

const WORKSPACE = "ws-demo";
const owner: AdminScope = { workspaceId: WORKSPACE, userId: "user-admin", role: "owner" };
const support: AdminScope = { workspaceId: WORKSPACE, userId: "user-admin", role: "support" };
const editor: AdminScope = { workspaceId: WORKSPACE, userId: "user-admin", role: "editor" };
const stranger: AdminScope = { workspaceId: "ws-other", userId: "user-other", role: "owner" };

let ctx: TestContext;
let agent: TestAgent;

beforeAll(async () => {
  ctx = await createMessagingContext();
  agent = await createAgentWithKey(ctx);
  await ctx.db.prisma.workspace.create({ data: { id: "ws-other", name: "Other" } });
  await ctx.db.prisma.user.create({
    data: { id: "user-other", workspaceId: "ws-other", email: "other@example.com", passwordHash: "unused" },
  });
  await createEndpoint(
    ctx.db,
    owner,
    {
      url: "https://hooks.example.com/parley",
      description: "",
      allAgents: true,
      agentIds: [],
      eventTypes: [...WEBHOOK_EVENT_TYPES],
      enabled: true,
    },
    { policy: { allowLocal: false, resolve: async () => ["93.184.216.34"] }, now: new Date() },
  );
});

afterAll(async () => {
  await ctx.close();
});

async function body(result: HttpResult): Promise<string> {
  let text = "";
  for await (const piece of result.stream!) text += piece;
  return text;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; details?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, details: (error as AppError).details };
}

/**
 * A conversation with the marker in every field a visitor fills or causes: identity, client and
 * page variables, the first page, messages (HTTP API with an idempotency key, and widget turns
 * whose webhook events quote them), a team reply, a note, tracking events and a receiver's answer.
 */
async function markedConversation(marker: string, email: string): Promise<string> {
  const api = await sendMessage(
    ctx,
    messageInput(
      agent,
      {
        message: `Hello, I am ${marker}`,
        visitor: { name: `Name ${marker}`, email, phone: "+14155550100" },
        clientVariables: { plan: `plan-${marker}` },
      },
      { idempotencyKey: `key-${marker}` },
    ),
  );
  expect(api.status).toBe(200);
  const conversationId = (api.json as { conversationId: string }).conversationId;
  const messaging = messagingAgent({ id: agent.id, workspaceId: WORKSPACE });
  await runTurn(ctx, messaging, { message: `Widget asks about ${marker}`, conversationId }, { channel: "widget" });
  await replyToConversation(ctx.db, owner, { id: conversationId, text: `A person answers ${marker}` });
  await addNote(ctx.db, owner, { id: conversationId, text: `Note about ${marker}` }, new Date());
  await ctx.db.prisma.conversation.update({
    where: { id: conversationId },
    data: { pageVariables: { page: `page-${marker}` }, firstPageUrl: `https://shop.example.com/${marker}` },
  });
  await ctx.db.prisma.trackingEvent.create({
    data: { agentId: agent.id, conversationId, event: `viewed-${marker}`, properties: { sku: marker } },
  });
  const delivery = await ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { event: { payload: { contains: conversationId } } } });
  await ctx.db.prisma.webhookAttempt.create({
    data: { deliveryId: delivery.id, number: 1, startedAt: new Date(), status: 200, latencyMs: 5, responseBody: `echo ${marker}` },
  });
  return conversationId;
}

/** Every column of every table (all but binary vectors) that holds the marker, as "Table.column". */
async function columnsHolding(marker: string): Promise<string[]> {
  const columns = await ctx.db.prisma.$queryRaw<Array<{ table_name: string; column_name: string }>>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND data_type <> 'bytea'
    ORDER BY table_name, column_name`;
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await ctx.db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
      marker,
    );
    if ((rows[0]?.n ?? 0) > 0) hits.push(`${table}.${column}`);
  }
  return hits;
}

async function counts() {
  const usage = await ctx.db.prisma.usageMonth.findMany({ where: { agentId: agent.id }, omit: { updatedAt: true } });
  const messages = await ctx.db.prisma.message.findMany({
    where: { conversation: { agentId: agent.id } },
    select: { conversationId: true, sequence: true, role: true, tokens: true, createdAt: true },
    orderBy: [{ conversationId: "asc" }, { sequence: "asc" }],
  });
  const conversations = await ctx.db.prisma.conversation.findMany({
    where: { agentId: agent.id },
    select: { id: true, messageCount: true, status: true, channel: true, createdAt: true },
    orderBy: { id: "asc" },
  });
  return { usage, messages, conversations };
}

describe("export", () => {
  it("one conversation: identity, variables, every message and tracking event, as a JSON download", async () => {
    const id = await markedConversation("exportone", "export.one@example.com");
    const result = await exportVisitorData(ctx, owner, { conversationId: id });
    expect(result.status).toBe(200);
    expect(result.headers?.["content-type"]).toBe("application/json; charset=utf-8");
    expect(result.headers?.["content-disposition"]).toMatch(/^attachment; filename="parley-visitor-conversation-/);
    const data = JSON.parse(await body(result));
    expect(data.request).toEqual({ conversationId: id });
    expect(data.conversations).toHaveLength(1);
    const [conversation] = data.conversations;
    expect(conversation).toMatchObject({
      id,
      agent: { id: agent.id },
      visitor: { name: "Name exportone", email: "export.one@example.com", phone: "+14155550100" },
      clientVariables: { plan: "plan-exportone" },
      pageVariables: { page: "page-exportone" },
      firstPageUrl: "https://shop.example.com/exportone",
      erasedAt: null,
      trackingEvents: [{ event: "viewed-exportone", properties: { sku: "exportone" } }],
    });
    const said = (conversation.messages as Array<{ from: string; text: string }>).filter((message) => message.from !== "agent");
    expect(said.map((message) => [message.from, message.text])).toEqual([
      ["visitor", "Hello, I am exportone"],
      ["visitor", "Widget asks about exportone"],
      ["team", "A person answers exportone"],
    ]);
    // The agent's answers are there too (one per visitor message), quoting the visitor's name.
    expect(conversation.messages.filter((message: { from: string }) => message.from === "agent")).toHaveLength(2);
    // Internal notes are the team's, not the visitor's.
    expect(JSON.stringify(data)).not.toContain("Note about");
  });

  it("by email: every conversation of the address in the workspace, any letter case", async () => {
    const first = await markedConversation("byemaila", "Repeat.Visitor@example.com");
    const second = await markedConversation("byemailb", "repeat.visitor@example.com");
    const data = JSON.parse(
      await body(await exportVisitorData(ctx, owner, parseVisitorTargetQuery(new URLSearchParams("email=REPEAT.visitor@example.com")))),
    );
    expect(data.conversations.map((c: { id: string }) => c.id).sort()).toEqual([first, second].sort());
    const none = JSON.parse(await body(await exportVisitorData(ctx, owner, { email: "nobody@example.com" })));
    expect(none.conversations).toEqual([]);
  });

  it("refuses support and editors, another workspace's conversation, and a query without a target", async () => {
    const id = await markedConversation("exportrefused", "refused@example.com");
    expect((await refusal(exportVisitorData(ctx, support, { conversationId: id }))).code).toBe("FORBIDDEN");
    expect((await refusal(exportVisitorData(ctx, editor, { email: "refused@example.com" }))).code).toBe("FORBIDDEN");
    expect((await refusal(exportVisitorData(ctx, stranger, { conversationId: id }))).code).toBe("CONVERSATION_NOT_FOUND");
    expect(() => parseVisitorTargetQuery(new URLSearchParams(""))).toThrow(AppError);
    expect(() => parseVisitorTargetQuery(new URLSearchParams(`conversationId=${id}&email=a@example.com`))).toThrow(AppError);
    expect(() => parseVisitorTargetQuery(new URLSearchParams("email=not-an-address"))).toThrow(AppError);
    for (const name of ["conversationId", "email"]) {
      expect(() => parseVisitorTargetQuery(new URLSearchParams(`${name}=a%00`)), name).toThrow(
        expect.objectContaining({ code: "INVALID_REQUEST", details: `${name}: must be valid Unicode text without NUL characters` }),
      );
    }
  });
});

describe("erasure", () => {
  it("takes a conversation or an email address (not both, not neither) and the typed confirmation", () => {
    expect(eraseVisitorInput.parse({ conversationId: "c1", confirmation: "ERASE" })).toEqual({
      conversationId: "c1",
      confirmation: "ERASE",
    });
    expect(eraseVisitorInput.parse({ email: " Ada@Example.com ", confirmation: "x" })).toEqual({
      email: "ada@example.com",
      confirmation: "x",
    });
    for (const bad of [
      { confirmation: "ERASE" },
      { conversationId: "c1", email: "ada@example.com", confirmation: "ERASE" },
      { conversationId: "c1" },
      { email: "not-an-address", confirmation: "ERASE" },
      { conversationId: "c1", confirmation: "x".repeat(401) },
    ])
      expect(eraseVisitorInput.safeParse(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
  });

  it("leaves the marker in no column of any table, keeps every count and usage, marks the conversation erased", async () => {
    const marker = "zqvmarkerone";
    const id = await markedConversation(marker, "erase.one@example.com");
    expect((await columnsHolding(marker)).length).toBeGreaterThan(8);
    const before = await counts();

    expect(await eraseVisitorData(ctx, owner, { conversationId: id, confirmation: "ERASE" })).toEqual({ conversations: 1 });

    expect(await columnsHolding(marker)).toEqual([]);
    expect(await columnsHolding("erase.one@example.com")).toEqual([]);
    expect(await counts()).toEqual(before);
    const row = await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id } });
    expect(row.erasedAt).toBeInstanceOf(Date);
    expect(row).toMatchObject({ visitorName: null, visitorEmail: null, visitorPhone: null, clientVariables: {}, pageVariables: {} });
    const messages = await ctx.db.prisma.message.findMany({ where: { conversationId: id } });
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((message) => message.text === "")).toBe(true);
  });

  it("by email: every conversation of the address, confirmed by typing the address", async () => {
    const marker = "zqvmarkertwo";
    const ids = [
      await markedConversation(`${marker}a`, "erase.two@example.com"),
      await markedConversation(`${marker}b`, "Erase.Two@example.com"),
    ];
    const other = await markedConversation("keepme", "someone.else@example.com");
    const before = await counts();

    expect(await eraseVisitorData(ctx, owner, { email: "erase.two@example.com", confirmation: " ERASE.two@example.com " })).toEqual({
      conversations: 2,
    });

    expect(await columnsHolding(marker)).toEqual([]);
    // The audit log records the erasure without the address it erased.
    expect(await columnsHolding("erase.two@example.com")).toEqual([]);
    const logged = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "visitor.erased" }, orderBy: { createdAt: "desc" } });
    expect(logged).toMatchObject({ targetType: "visitor", targetLabel: "a visitor found by email address", detail: { conversations: 2 } });
    expect(await counts()).toEqual(before);
    const erased = await ctx.db.prisma.conversation.findMany({ where: { id: { in: ids } } });
    expect(erased.every((row) => row.erasedAt !== null)).toBe(true);
    expect((await ctx.db.prisma.conversation.findUniqueOrThrow({ where: { id: other } })).visitorName).toBe("Name keepme");
  });

  it("is refused without the typed confirmation, for support and editors, and across workspaces; nothing changes", async () => {
    const marker = "zqvmarkerkept";
    const id = await markedConversation(marker, "kept@example.com");
    const wrong = await refusal(eraseVisitorData(ctx, owner, { conversationId: id, confirmation: "erase" }));
    expect(wrong).toEqual({ code: "INVALID_REQUEST", details: "Type ERASE or the visitor's email address to confirm" });
    // The address confirms an erasure by that address only.
    expect((await refusal(eraseVisitorData(ctx, owner, { conversationId: id, confirmation: "kept@example.com" }))).code).toBe(
      "INVALID_REQUEST",
    );
    expect((await refusal(eraseVisitorData(ctx, support, { conversationId: id, confirmation: "ERASE" }))).code).toBe("FORBIDDEN");
    expect((await refusal(eraseVisitorData(ctx, editor, { email: "kept@example.com", confirmation: "ERASE" }))).code).toBe("FORBIDDEN");
    expect((await refusal(eraseVisitorData(ctx, stranger, { conversationId: id, confirmation: "ERASE" }))).code).toBe(
      "CONVERSATION_NOT_FOUND",
    );
    expect(await eraseVisitorData(ctx, stranger, { email: "kept@example.com", confirmation: "ERASE" })).toEqual({ conversations: 0 });
    expect((await columnsHolding(marker)).length).toBeGreaterThan(8);
  });
});
