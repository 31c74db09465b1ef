// The writes of one turn, inside its transaction: the conversation (created, or advanced by two
// messages) and the turn's two messages. The status a turn sets is decided by the caller
// (statusSetByTurn in turn.ts) and written here, by whichever of the two statements runs.
import type { Prisma } from "@parley/db";
import type { EngineResult, EngineVisitor } from "../../engine/types.ts";
import { AppError } from "../../platform/errors.ts";
import type { ConversationState, WireStatus } from "../../platform/wire-status.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";

type Tx = Prisma.TransactionClient;

/**
 * Where the turn's messages went: the conversation, its status after the turn (never `resolved`: a
 * turn reopens a resolved conversation), the status before it (null for a new conversation), and
 * the first sequence.
 */
export interface StoredConversation {
  conversationId: string;
  status: WireStatus;
  previousStatus: ConversationState | null;
  firstSequence: number;
}

/** A new conversation holding the turn's two messages (counted here; stored by storeMessages). */
export async function createConversation(
  tx: Tx,
  conversation: {
    agentId: string;
    channel: "api" | "widget";
    /** The status the turn sets, or null: a new conversation starts active. */
    setStatus: WireStatus | null;
    visitor: { email: string | null; name: string | null; phone: string | null };
    clientVariables: Record<string, string>;
    pageVariables: Record<string, string>;
    firstPageUrl: string | null;
    /** Widget: the page's key of the first message (client-message.ts), or null. */
    firstMessageKeyHash: string | null;
    /** A team member's test chat. */
    test: boolean;
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
      firstPageUrl: conversation.firstPageUrl,
      firstMessageKeyHash: conversation.firstMessageKeyHash,
      test: conversation.test,
      messageCount: 2,
      escalatedAt: status === "escalated" ? conversation.now : null,
      // A conversation that asks for a person at once waits for one from its first message.
      waitingSince: status === "escalated" ? conversation.now : null,
      createdAt: conversation.now,
      updatedAt: conversation.now,
    },
    select: { id: true },
  });
  return { conversationId: created.id, status, previousStatus: null, firstSequence: 0 };
}

/**
 * Adds the turn's two messages to an existing conversation: the row lock of this UPDATE orders
 * concurrent turns of one conversation, and the returned count gives each its sequence numbers.
 * The status changes only when the turn sets one, or when the conversation was resolved (a new
 * message reopens it as active); otherwise it stays as the row holds it at commit (so an admin's
 * concurrent change stands). Visitor fields are replaced only when sent; variables are merged. In
 * an escalated conversation the visitor's message starts their wait unless one already runs.
 */
export async function advanceConversation(
  tx: Pick<Tx, "$queryRaw">,
  change: {
    id: string;
    agentId: string;
    setStatus: WireStatus | null;
    visitor: EngineVisitor;
    clientVariables: Record<string, string>;
    now: Date;
  },
): Promise<StoredConversation> {
  const at = change.now.toISOString();
  // The previous status comes from the row as locked by this UPDATE (the sub-select of the same
  // row reads the version the update replaces).
  const rows = await tx.$queryRaw<Array<{ messageCount: number; status: WireStatus; previousStatus: ConversationState }>>`
    UPDATE "Conversation" c
    SET "messageCount" = c."messageCount" + 2,
        "status" = COALESCE(${change.setStatus}::"ConversationStatus", CASE WHEN c."status" = 'resolved' THEN 'active'::"ConversationStatus" ELSE c."status" END),
        "escalatedAt" = CASE WHEN ${change.setStatus}::text = 'escalated' AND c."status" <> 'escalated'
                             THEN (${at}::timestamptz AT TIME ZONE 'UTC') ELSE c."escalatedAt" END,
        "resolvedAt" = NULL,
        -- The visitor waits for a person while the conversation is escalated: since the first of
        -- their messages no person has answered yet (a person's reply clears it; inbox.ts).
        "waitingSince" = CASE WHEN COALESCE(${change.setStatus}::text, c."status"::text) = 'escalated'
                              THEN COALESCE(c."waitingSince", (${at}::timestamptz AT TIME ZONE 'UTC')) ELSE NULL END,
        "visitorEmail" = COALESCE(${change.visitor.email ?? null}::text, c."visitorEmail"),
        "visitorName" = COALESCE(${change.visitor.name ?? null}::text, c."visitorName"),
        "visitorPhone" = COALESCE(${change.visitor.phone ?? null}::text, c."visitorPhone"),
        "clientVariables" = c."clientVariables" || ${JSON.stringify(change.clientVariables)}::jsonb,
        "updatedAt" = (${at}::timestamptz AT TIME ZONE 'UTC')
    FROM (SELECT "id", "status" FROM "Conversation" WHERE "id" = ${change.id} FOR UPDATE) old
    WHERE c."id" = old."id" AND c."agentId" = ${change.agentId}
    RETURNING c."messageCount", c."status"::text AS "status", old."status"::text AS "previousStatus"`;
  const row = rows[0];
  if (!row) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  return { conversationId: change.id, status: row.status, previousStatus: row.previousStatus, firstSequence: row.messageCount - 2 };
}

/**
 * The timeline entries a turn adds: escalated (it asked for a person) or reopened (a message in a
 * resolved conversation). Made by the turn, so no person is named.
 */
export async function recordTurnActivity(tx: Tx, stored: StoredConversation, now: Date): Promise<void> {
  const kinds: string[] = [];
  if (stored.previousStatus === "resolved") kinds.push("reopened");
  if (stored.status === "escalated" && stored.previousStatus !== "escalated") kinds.push("escalated");
  if (kinds.length === 0) return;
  await tx.conversationActivity.createMany({
    data: kinds.map((kind) => ({ conversationId: stored.conversationId, kind, createdAt: now })),
  });
}

/** The visitor's message and the agent's reply, at the sequences the conversation gave them. */
export async function storeMessages(
  tx: Tx,
  stored: StoredConversation,
  turn: { userText: string; result: EngineResult; now: Date; voice: boolean; clientMessageId: string | null },
): Promise<{ userMessageId: string; agentMessageId: string }> {
  const { conversationId, firstSequence } = stored;
  const { result, now, voice, clientMessageId } = turn;
  const rows = await tx.message.createManyAndReturn({
    select: { id: true, role: true },
    data: [
      { conversationId, role: "user", text: turn.userText, tokens: 0, sequence: firstSequence, voice, clientMessageId, createdAt: now },
      {
        conversationId,
        role: "agent",
        text: result.reply,
        tokens: result.tokenUsage,
        toolCalls: result.toolCalls as unknown as Prisma.InputJsonValue,
        richContent: result.richContent as unknown as Prisma.InputJsonValue,
        sequence: firstSequence + 1,
        voice,
        createdAt: now,
      },
    ],
  });
  const userMessage = rows.find((row) => row.role === "user");
  const agentMessage = rows.find((row) => row.role === "agent");
  if (!userMessage || !agentMessage) throw new Error("the turn's messages were not stored");
  return { userMessageId: userMessage.id, agentMessageId: agentMessage.id };
}
