// A visitor message sent with a clientMessageId (the widget's outbox sends it again after a
// reconnect until it is acknowledged) is stored once per conversation: the unique index on
// (conversationId, clientMessageId) holds it across instances and restarts. A message sent again
// finds the stored one here and is acknowledged again, with no second turn.
import type { Database } from "@parley/db";
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
  const known = error as { code?: unknown; meta?: unknown } | null;
  return known?.code === "P2002" && JSON.stringify(known.meta ?? {}).includes("clientMessageId");
}
