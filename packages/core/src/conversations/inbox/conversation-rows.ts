// The shapes the panel reads conversations and messages in, shared by the inbox's reads and writes.
import type { Prisma } from "@parley/db";
import { teamMemberName } from "../../people/team.ts";
import { renderMessageHtml } from "../../platform/markdown.ts";
import { ratingSelect } from "../rating.ts";

export const conversationSelect = {
  id: true,
  agentId: true,
  status: true,
  channel: true,
  visitorName: true,
  visitorEmail: true,
  visitorPhone: true,
  firstPageUrl: true,
  messageCount: true,
  escalatedAt: true,
  waitingSince: true,
  resolvedAt: true,
  erasedAt: true,
  createdAt: true,
  updatedAt: true,
  agent: { select: { name: true } },
  assignee: { select: { id: true, name: true, email: true } },
  joinedBy: { select: { id: true, name: true, email: true } },
  /** The visitor's rating of its latest resolution, if any. */
  rating: { select: ratingSelect },
} satisfies Prisma.ConversationSelect;

export type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>;

export function toConversation({ agent, assignee, joinedBy, ...row }: ConversationRow) {
  return {
    ...row,
    agentName: agent.name,
    assignee: assignee ? { id: assignee.id, name: teamMemberName(assignee) } : null,
    joinedBy: joinedBy ? { id: joinedBy.id, name: teamMemberName(joinedBy) } : null,
  };
}

export const messageSelect = {
  id: true,
  role: true,
  text: true,
  tokens: true,
  toolCalls: true,
  richContent: true,
  sequence: true,
  voice: true,
  interrupted: true,
  createdAt: true,
} satisfies Prisma.MessageSelect;

type MessageRow = Prisma.MessageGetPayload<{ select: typeof messageSelect }>;

/**
 * Tool calls and rich content are JSON columns holding arrays (the engine's shapes). Agent and team
 * replies come with their Markdown as sanitised HTML; the visitor's text is shown as written.
 */
export function toMessage(row: MessageRow) {
  return {
    ...row,
    html: row.role === "user" ? null : renderMessageHtml(row.text),
    toolCalls: row.toolCalls as Array<{ name: string; args: Record<string, unknown> }>,
    richContent: row.richContent as unknown[],
  };
}

export type ConversationMessage = ReturnType<typeof toMessage>;
