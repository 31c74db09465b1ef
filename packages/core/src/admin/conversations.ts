// Conversations of a workspace's agents: list, transcript, status changes and the human reply
// an admin gives in an escalated conversation.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { MESSAGE_MAX_CHARS, PANEL_CONVERSATIONS_MAX_PER_PAGE, PANEL_CONVERSATIONS_PER_PAGE } from "../limits.ts";
import { renderMessageHtml } from "../markdown.ts";
import { type ConversationRef, conversationMessage, conversationStatusChanged, recordWebhookEvents } from "../webhooks/events.ts";
import { type LiveBus, publishLive } from "../widget/live.ts";
import { toWireMessage } from "../widget/session.ts";
import { rowId } from "./scope.ts";

/** The latest tracking events shown with a conversation. */
const TRACKING_EVENTS_SHOWN = 200;

/** Characters of the last message shown in the list. */
const PREVIEW_CHARS = 200;

const statusInput = z.enum(["active", "escalated"]);

export const listConversationsInput = z
  .object({
    agentId: rowId.optional(),
    status: statusInput.optional(),
    limit: z.number().int().min(1).max(PANEL_CONVERSATIONS_MAX_PER_PAGE).default(PANEL_CONVERSATIONS_PER_PAGE),
    /** The `nextCursor` of the previous page. */
    cursor: rowId.nullish(),
  })
  .default({ limit: PANEL_CONVERSATIONS_PER_PAGE });
export const conversationIdInput = z.object({ id: rowId });
export const replyInput = z.object({
  id: rowId,
  text: z
    .string()
    .max(MESSAGE_MAX_CHARS)
    .refine((value) => value.trim().length > 0, "Write a reply"),
});
export const setStatusInput = z.object({ id: rowId, status: statusInput });

const conversationSelect = {
  id: true,
  agentId: true,
  status: true,
  channel: true,
  visitorName: true,
  visitorEmail: true,
  visitorPhone: true,
  messageCount: true,
  createdAt: true,
  updatedAt: true,
  agent: { select: { name: true } },
} satisfies Prisma.ConversationSelect;

type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>;

function toConversation({ agent, ...row }: ConversationRow) {
  return { ...row, agentName: agent.name };
}

const messageSelect = {
  id: true,
  role: true,
  text: true,
  tokens: true,
  toolCalls: true,
  richContent: true,
  sequence: true,
  createdAt: true,
} satisfies Prisma.MessageSelect;

/** Most recently active first; page through with `cursor`. */
export async function listConversations(db: Database, workspaceId: string, input: z.infer<typeof listConversationsInput>) {
  const where: Prisma.ConversationWhereInput = { agent: { workspaceId } };
  if (input.agentId) where.agentId = input.agentId;
  if (input.status) where.status = input.status;
  const rows = await db.prisma.conversation.findMany({
    where,
    select: conversationSelect,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  // The last message has sequence messageCount - 1: one indexed lookup per row, in one query.
  const withMessages = page.filter((row) => row.messageCount > 0);
  const lastMessages =
    withMessages.length === 0
      ? []
      : await db.prisma.message.findMany({
          where: { OR: withMessages.map((row) => ({ conversationId: row.id, sequence: row.messageCount - 1 })) },
          select: { conversationId: true, role: true, text: true, createdAt: true },
        });
  const lastByConversation = new Map(lastMessages.map(({ conversationId, ...message }) => [conversationId, message]));
  return {
    items: page.map((row) => {
      const last = lastByConversation.get(row.id);
      return {
        ...toConversation(row),
        lastMessage: last ? { role: last.role, text: last.text.slice(0, PREVIEW_CHARS), createdAt: last.createdAt } : null,
      };
    }),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getConversation(db: Database, workspaceId: string, id: string) {
  const row = await db.prisma.conversation.findFirst({
    where: { id, agent: { workspaceId } },
    select: {
      ...conversationSelect,
      clientVariables: true,
      pageVariables: true,
      messages: { select: messageSelect, orderBy: { sequence: "asc" } },
      // Widget tracking events, shown in the timeline between the messages.
      trackingEvents: {
        select: { id: true, event: true, properties: true, createdAt: true },
        orderBy: { createdAt: "desc" },
        take: TRACKING_EVENTS_SHOWN,
      },
    },
  });
  if (!row) throw new AppError("CONVERSATION_NOT_FOUND");
  const { messages, clientVariables, pageVariables, trackingEvents, ...conversation } = row;
  return {
    ...toConversation(conversation),
    clientVariables: clientVariables as Record<string, string>,
    pageVariables: pageVariables as Record<string, string>,
    messages: messages.map(toMessage),
    trackingEvents: trackingEvents.reverse().map((event) => ({ ...event, properties: event.properties as Record<string, unknown> })),
  };
}

type MessageRow = Prisma.MessageGetPayload<{ select: typeof messageSelect }>;

/**
 * Tool calls and rich content are JSON columns holding arrays (the engine's shapes). Agent and team
 * replies come with their Markdown as sanitised HTML; the visitor's text is shown as written.
 */
function toMessage(row: MessageRow) {
  return {
    ...row,
    html: row.role === "user" ? null : renderMessageHtml(row.text),
    toolCalls: row.toolCalls as Array<{ name: string; args: Record<string, unknown> }>,
    richContent: row.richContent as unknown[],
  };
}

export type ConversationMessage = ReturnType<typeof toMessage>;

/** The conversation as webhook payloads describe it. */
const eventConversationSelect = {
  id: true,
  agentId: true,
  channel: true,
  status: true,
  visitorName: true,
  visitorEmail: true,
  visitorPhone: true,
} satisfies Prisma.ConversationSelect;

function eventConversation(row: Prisma.ConversationGetPayload<{ select: typeof eventConversationSelect }>): ConversationRef {
  return {
    id: row.id,
    agentId: row.agentId,
    channel: row.channel,
    status: row.status,
    visitor: { name: row.visitorName, email: row.visitorEmail, phone: row.visitorPhone },
  };
}

/**
 * An admin's reply in an escalated conversation, stored as a message from a person. The
 * conversation row is updated first (taking its lock), so the sequence comes from the atomic
 * messageCount increment and concurrent turns never share one. Emits conversation.message (also
 * for conversations of the HTTP API: this is a panel action), in the same transaction.
 */
export async function replyToConversation(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof replyInput>,
  now: Date = new Date(),
  live?: LiveBus,
): Promise<ConversationMessage> {
  const reply = await db.prisma.$transaction(async (tx) => {
    const conversation = await tx.conversation.findFirst({ where: { id: input.id, agent: { workspaceId } }, select: { status: true } });
    if (!conversation) throw new AppError("CONVERSATION_NOT_FOUND");
    const { count } = await tx.conversation.updateMany({
      where: { id: input.id, status: "escalated" },
      data: { messageCount: { increment: 1 } },
    });
    if (count === 0) throw new AppError("NOT_ESCALATED");
    const { messageCount, ...current } = await tx.conversation.findUniqueOrThrow({
      where: { id: input.id },
      select: { messageCount: true, ...eventConversationSelect },
    });
    const message = await tx.message.create({
      data: { conversationId: input.id, role: "human", text: input.text, sequence: messageCount - 1 },
      select: messageSelect,
    });
    await recordWebhookEvents(
      tx,
      { workspaceId, agentIds: [current.agentId] },
      [
        conversationMessage(eventConversation(current), [
          { role: "human", text: message.text, sequence: message.sequence, createdAt: message.createdAt },
        ]),
      ],
      now,
    );
    return toMessage(message);
  });
  // After the commit: a visitor connected over the widget sees the reply at once.
  await publishLive(live, input.id, { type: "message", message: toWireMessage(reply) });
  return reply;
}

/**
 * Sets a conversation's status (an admin escalating it, or handing it back). A real change emits
 * conversation.status_changed in the same transaction; the row lock orders concurrent changes.
 */
export async function setConversationStatus(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof setStatusInput>,
  now: Date = new Date(),
  live?: LiveBus,
) {
  const conversation = await db.prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ status: "active" | "escalated" }>>`
      SELECT c."status"::text AS "status"
      FROM "Conversation" c
      JOIN "Agent" a ON a."id" = c."agentId"
      WHERE c."id" = ${input.id} AND a."workspaceId" = ${workspaceId}
      FOR UPDATE OF c`;
    const previous = locked[0];
    if (!previous) throw new AppError("CONVERSATION_NOT_FOUND");
    const row = await tx.conversation.update({ where: { id: input.id }, data: { status: input.status }, select: conversationSelect });
    if (previous.status !== input.status) {
      await recordWebhookEvents(
        tx,
        { workspaceId, agentIds: [row.agentId] },
        [conversationStatusChanged(eventConversation(row), previous.status, "admin")],
        now,
      );
    }
    return toConversation(row);
  });
  await publishLive(live, input.id, { type: "status", status: conversation.status });
  return conversation;
}
