// Conversations of a workspace's agents: list, transcript, status changes and the human reply
// an admin gives in an escalated conversation.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { MESSAGE_MAX_CHARS, PANEL_CONVERSATIONS_MAX_PER_PAGE, PANEL_CONVERSATIONS_PER_PAGE } from "../limits.ts";
import { rowId } from "./scope.ts";

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
    select: { ...conversationSelect, clientVariables: true, messages: { select: messageSelect, orderBy: { sequence: "asc" } } },
  });
  if (!row) throw new AppError("CONVERSATION_NOT_FOUND");
  const { messages, clientVariables, ...conversation } = row;
  return {
    ...toConversation(conversation),
    clientVariables: clientVariables as Record<string, string>,
    messages: messages.map(toMessage),
  };
}

type MessageRow = Prisma.MessageGetPayload<{ select: typeof messageSelect }>;

/** Tool calls and rich content are JSON columns holding arrays (the engine's shapes). */
function toMessage(row: MessageRow) {
  return {
    ...row,
    toolCalls: row.toolCalls as Array<{ name: string; args: Record<string, unknown> }>,
    richContent: row.richContent as unknown[],
  };
}

export type ConversationDetail = Awaited<ReturnType<typeof getConversation>>;
export type ConversationMessage = ReturnType<typeof toMessage>;

/**
 * An admin's reply in an escalated conversation, stored as a message from a person. The
 * conversation row is updated first (taking its lock), so the sequence comes from the atomic
 * messageCount increment and concurrent turns never share one.
 */
export async function replyToConversation(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof replyInput>,
): Promise<ConversationMessage> {
  return db.prisma.$transaction(async (tx) => {
    const conversation = await tx.conversation.findFirst({ where: { id: input.id, agent: { workspaceId } }, select: { status: true } });
    if (!conversation) throw new AppError("CONVERSATION_NOT_FOUND");
    const { count } = await tx.conversation.updateMany({
      where: { id: input.id, status: "escalated" },
      data: { messageCount: { increment: 1 } },
    });
    if (count === 0) throw new AppError("NOT_ESCALATED");
    const { messageCount } = await tx.conversation.findUniqueOrThrow({ where: { id: input.id }, select: { messageCount: true } });
    const message = await tx.message.create({
      data: { conversationId: input.id, role: "human", text: input.text, sequence: messageCount - 1 },
      select: messageSelect,
    });
    return toMessage(message);
  });
}

export async function setConversationStatus(db: Database, workspaceId: string, input: z.infer<typeof setStatusInput>) {
  const { count } = await db.prisma.conversation.updateMany({
    where: { id: input.id, agent: { workspaceId } },
    data: { status: input.status },
  });
  if (count === 0) throw new AppError("CONVERSATION_NOT_FOUND");
  const row = await db.prisma.conversation.findUniqueOrThrow({ where: { id: input.id }, select: conversationSelect });
  return toConversation(row);
}
