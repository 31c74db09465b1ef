// The writes of one turn, inside its transaction: the conversation (created, or advanced by two
// messages) and the turn's two messages. The status a turn sets is decided by the caller
// (statusSetByTurn in turn.ts) and written here, by whichever of the two statements runs.
import type { Prisma } from "@parley/db";
import type { EngineResult, EngineVisitor } from "../engine/types.ts";
import { AppError } from "../errors.ts";

type ConversationStatus = "active" | "escalated";
type Tx = Prisma.TransactionClient;

/** Where the turn's messages went: the conversation, its status after the turn, the first sequence. */
export interface StoredConversation {
  conversationId: string;
  status: ConversationStatus;
  firstSequence: number;
}

/** A new conversation holding the turn's two messages (counted here; stored by storeMessages). */
export async function createConversation(
  tx: Tx,
  conversation: {
    agentId: string;
    channel: "api" | "widget";
    /** The status the turn sets, or null: a new conversation starts active. */
    setStatus: ConversationStatus | null;
    visitor: { email: string | null; name: string | null; phone: string | null };
    clientVariables: Record<string, string>;
    pageVariables: Record<string, string>;
    now: Date;
  },
): Promise<StoredConversation> {
  const status = conversation.setStatus ?? "active";
  const created = await tx.conversation.create({
    data: {
      agentId: conversation.agentId,
      channel: conversation.channel,
      status,
      visitorEmail: conversation.visitor.email,
      visitorName: conversation.visitor.name,
      visitorPhone: conversation.visitor.phone,
      clientVariables: conversation.clientVariables,
      pageVariables: conversation.pageVariables,
      messageCount: 2,
      createdAt: conversation.now,
      updatedAt: conversation.now,
    },
    select: { id: true },
  });
  return { conversationId: created.id, status, firstSequence: 0 };
}

/**
 * Adds the turn's two messages to an existing conversation: the row lock of this UPDATE orders
 * concurrent turns of one conversation, and the returned count gives each its sequence numbers.
 * The status changes only when the turn sets one; otherwise it stays as the row holds it at commit
 * (so an admin's concurrent change stands). Visitor fields are replaced only when sent; variables
 * are merged.
 */
export async function advanceConversation(
  tx: Pick<Tx, "$queryRaw">,
  change: {
    id: string;
    agentId: string;
    setStatus: ConversationStatus | null;
    visitor: EngineVisitor;
    clientVariables: Record<string, string>;
    now: Date;
  },
): Promise<StoredConversation> {
  const rows = await tx.$queryRaw<Array<{ messageCount: number; status: ConversationStatus }>>`
    UPDATE "Conversation"
    SET "messageCount" = "messageCount" + 2,
        "status" = COALESCE(${change.setStatus}::"ConversationStatus", "status"),
        "visitorEmail" = COALESCE(${change.visitor.email ?? null}::text, "visitorEmail"),
        "visitorName" = COALESCE(${change.visitor.name ?? null}::text, "visitorName"),
        "visitorPhone" = COALESCE(${change.visitor.phone ?? null}::text, "visitorPhone"),
        "clientVariables" = "clientVariables" || ${JSON.stringify(change.clientVariables)}::jsonb,
        "updatedAt" = (${change.now.toISOString()}::timestamptz AT TIME ZONE 'UTC')
    WHERE "id" = ${change.id} AND "agentId" = ${change.agentId}
    RETURNING "messageCount", "status"::text AS "status"`;
  const row = rows[0];
  if (!row) throw new AppError("CONVERSATION_NOT_FOUND");
  return { conversationId: change.id, status: row.status, firstSequence: row.messageCount - 2 };
}

/** The visitor's message and the agent's reply, at the sequences the conversation gave them. */
export async function storeMessages(tx: Tx, stored: StoredConversation, turn: { userText: string; result: EngineResult; now: Date }) {
  const { conversationId, firstSequence } = stored;
  const { result, now } = turn;
  await tx.message.createMany({
    data: [
      { conversationId, role: "user", text: turn.userText, tokens: 0, sequence: firstSequence, createdAt: now },
      {
        conversationId,
        role: "agent",
        text: result.reply,
        tokens: result.tokenUsage,
        toolCalls: result.toolCalls as unknown as Prisma.InputJsonValue,
        richContent: result.richContent as unknown as Prisma.InputJsonValue,
        sequence: firstSequence + 1,
        createdAt: now,
      },
    ],
  });
}
