// A visitor message sent with a clientMessageId (the widget's outbox sends it again after a
// reconnect until it is acknowledged) is stored once per conversation: the unique index on
// (conversationId, clientMessageId) holds it across instances and restarts. A message sent again
// finds the stored one here and is acknowledged again, with no second turn.
//
// A conversation's first message has no conversation to be found in: when the socket dies after
// the turn stored it but before `ready` named the conversation, the page sends it again with no
// conversation. It is found by the page's startKey (a random secret of the page, sent in hello)
// hashed with its clientMessageId, which the conversation keeps (firstMessageKeyHash, unique per
// agent): only the page that started the conversation knows the key, so another visitor cannot
// join it with a guessed or replayed clientMessageId, and only within
// FIRST_MESSAGE_RESEND_WINDOW_MS of its start.
import { createHash } from "node:crypto";
import type { Database } from "@parley/db";
import { FIRST_MESSAGE_RESEND_WINDOW_MS } from "../limits.ts";
import { toWireMessage, type WireMessage } from "../wire-message.ts";

/** The visitor's stored message, and the agent's reply stored with it in the same turn (null if a person's message followed instead). */
export interface StoredClientMessage {
  messageId: string;
  text: string;
  reply: WireMessage | null;
}

export async function findClientMessage(
  db: Database,
  conversationId: string,
  clientMessageId: string,
): Promise<StoredClientMessage | null> {
  const message = await db.prisma.message.findUnique({
    where: { conversationId_clientMessageId: { conversationId, clientMessageId } },
    select: { id: true, sequence: true, text: true },
  });
  if (!message) return null;
  // A turn stores the visitor's message and the agent's reply at the next sequence, together.
  const next = await db.prisma.message.findUnique({
    where: { conversationId_sequence: { conversationId, sequence: message.sequence + 1 } },
    select: { id: true, role: true, text: true, richContent: true, toolCalls: true, createdAt: true, voice: true, interrupted: true },
  });
  return { messageId: message.id, text: message.text, reply: next?.role === "agent" ? toWireMessage(next) : null };
}

/** True for the unique index's conflict on (conversationId, clientMessageId): a concurrent turn stored the message first. */
export function isClientMessageConflict(error: unknown): boolean {
  return isUniqueConflictOn(error, "clientMessageId");
}

/** What a conversation keeps of the page and first message that started it: never the key itself. */
export function firstMessageKeyHash(startKey: string, clientMessageId: string): string {
  // Neither may hold ":" (their patterns), so no two pairs hash the same text.
  return createHash("sha256").update(`${startKey}:${clientMessageId}`).digest("hex");
}

/**
 * A first message sent again: `join` the conversation it started (with the message and its
 * reply, to acknowledge again), `taken` when a conversation holds the key but this is no resend of
 * its first message (another text, or too late: start a new conversation without the key), or
 * null when none does (start one with the key).
 */
export type StartedConversation = { kind: "join"; conversationId: string; message: StoredClientMessage } | { kind: "taken" };

export async function findStartedConversation(
  db: Database,
  first: { agentId: string; startKey: string; clientMessageId: string; text: string },
  now: Date,
): Promise<StartedConversation | null> {
  const conversation = await db.prisma.conversation.findUnique({
    where: {
      agentId_firstMessageKeyHash: {
        agentId: first.agentId,
        firstMessageKeyHash: firstMessageKeyHash(first.startKey, first.clientMessageId),
      },
    },
    select: { id: true, createdAt: true },
  });
  if (!conversation) return null;
  if (now.getTime() - conversation.createdAt.getTime() > FIRST_MESSAGE_RESEND_WINDOW_MS) return { kind: "taken" };
  const message = await findClientMessage(db, conversation.id, first.clientMessageId);
  if (message?.text !== first.text) return { kind: "taken" };
  return { kind: "join", conversationId: conversation.id, message };
}

/** True for the unique index's conflict on (agentId, firstMessageKeyHash): a concurrent turn started the conversation first. */
export function isFirstMessageConflict(error: unknown): boolean {
  return isUniqueConflictOn(error, "firstMessageKeyHash");
}

function isUniqueConflictOn(error: unknown, column: string): boolean {
  const known = error as { code?: unknown; meta?: unknown } | null;
  return known?.code === "P2002" && JSON.stringify(known.meta ?? {}).includes(column);
}
