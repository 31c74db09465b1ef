// One conversation turn, for any channel: find the conversation (of this agent only), check the
// quotas, run the engine (no writes), then write everything in ONE transaction: the conversation
// (created, or its counters, status, visitor and variables updated), the user and agent messages,
// the webhook events (widget channel only), the idempotency record if any, and last the month's
// usage (atomically within the limits). Nothing is written when the engine or the database fails.
import type { Prisma } from "@parley/db";
import type { AppContext } from "../context.ts";
import type { ClientTool, EngineHistoryMessage, EngineResult, EngineVisitor, RichContentItem, ToolCall } from "../engine/types.ts";
import { AppError, isAppError } from "../errors.ts";
import { TURN_HISTORY_MESSAGES } from "../limits.ts";
import { logger } from "../logger.ts";
import { countTokens } from "../tokens.ts";
import { recordWebhookEvents } from "../webhooks/events.ts";
import type { MessagingAgent } from "./auth.ts";
import { type StoredResponse, storeResponse } from "./idempotency.ts";
import { assertQuotaAvailable, reserveUsage, usageMonth } from "./quotas.ts";
import type { MessageRequest } from "./schema.ts";
import { turnEvents } from "./turn-events.ts";

/** The 200 body of spec 2.2: exactly these seven fields. */
export interface MessageResponse {
  conversationId: string;
  reply: string;
  tokenUsage: number;
  toolCalls: ToolCall[];
  richContent: RichContentItem[];
  handoffRequested: boolean;
  status: "active" | "escalated";
}

export interface TurnOptions {
  channel: "api" | "widget";
  /** Store the response under this Idempotency-Key, in the turn's transaction. */
  idempotency?: { key: string; hash: string };
  signal?: AbortSignal;
  /** Widget: the page's variables, stored on a new conversation and given to the engine. */
  pageVariables?: Record<string, string>;
  /** Widget: tools the page registered, which the LLM engine may call (run in the browser). */
  clientTools?: ClientTool[];
}

/** A concurrent request with the same Idempotency-Key committed first; answer with its response. */
export class IdempotentRaceLost extends Error {
  constructor() {
    super("Idempotency-Key used by a concurrent request");
    this.name = "IdempotentRaceLost";
  }
}

// Interactive transactions wait for a connection (busy pools under load) and for row locks held by
// concurrent turns of the same agent; both are short, but Prisma's defaults (2 s / 5 s) are tight.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** The reply of every turn of an escalated conversation: the person taking over will see it. */
export const ESCALATED_REPLY =
  "Thanks, your message has been added to the conversation. A person from our team has been asked to take over and will follow up here.";

export async function runTurn(
  ctx: AppContext,
  agent: MessagingAgent,
  request: MessageRequest,
  options: TurnOptions,
): Promise<MessageResponse> {
  const now = ctx.now();
  const month = usageMonth(now);

  const conversation = request.conversationId
    ? await ctx.db.prisma.conversation.findFirst({
        where: { id: request.conversationId, agentId: agent.id },
        select: {
          id: true,
          status: true,
          channel: true,
          visitorEmail: true,
          visitorName: true,
          visitorPhone: true,
          clientVariables: true,
          pageVariables: true,
        },
      })
    : null;
  if (request.conversationId && !conversation) throw new AppError("CONVERSATION_NOT_FOUND");
  const startsConversation = conversation === null;

  await assertQuotaAvailable(ctx.db, agent, { month, startsConversation, channel: options.channel });

  const status = conversation?.status ?? "active";
  const visitor: EngineVisitor = {
    email: request.visitor?.email ?? conversation?.visitorEmail ?? undefined,
    name: request.visitor?.name?.trim() || conversation?.visitorName || undefined,
    phone: request.visitor?.phone ?? conversation?.visitorPhone ?? undefined,
  };
  const variables = {
    ...asStringRecord(conversation?.clientVariables),
    ...asStringRecord(conversation?.pageVariables),
    ...request.clientVariables,
    ...options.pageVariables,
  };

  const result =
    status === "escalated"
      ? escalatedTurn(request.message)
      : await runEngine(ctx, agent, {
          history: conversation ? await loadHistory(ctx, conversation.id) : [],
          message: request.message,
          visitor,
          variables,
          signal: options.signal,
          clientTools: options.clientTools,
        });

  const response = await ctx.db.prisma.$transaction(async (tx) => {
    let conversationId: string;
    let finalStatus: MessageResponse["status"];
    let firstSequence: number;
    if (conversation === null) {
      finalStatus = result.handoffRequested ? "escalated" : "active";
      const created = await tx.conversation.create({
        data: {
          agentId: agent.id,
          channel: options.channel,
          status: finalStatus,
          visitorEmail: request.visitor?.email ?? null,
          visitorName: visitor.name ?? null,
          visitorPhone: request.visitor?.phone ?? null,
          clientVariables: request.clientVariables ?? {},
          pageVariables: options.pageVariables ?? {},
          messageCount: 2,
          createdAt: now,
          updatedAt: now,
        },
        select: { id: true },
      });
      conversationId = created.id;
      firstSequence = 0;
    } else {
      const updated = await advanceConversation(tx, {
        id: conversation.id,
        agentId: agent.id,
        handoff: result.handoffRequested,
        visitor: { email: request.visitor?.email, name: request.visitor?.name?.trim() || undefined, phone: request.visitor?.phone },
        clientVariables: request.clientVariables ?? {},
        now,
      });
      conversationId = conversation.id;
      finalStatus = updated.status;
      firstSequence = updated.messageCount - 2;
    }

    await tx.message.createMany({
      data: [
        { conversationId, role: "user", text: request.message, tokens: 0, sequence: firstSequence, createdAt: now },
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

    // Spec 6: the HTTP API emits no events of its own (its caller has the response); the widget
    // and SDK channel does, in this transaction (the webhook outbox).
    if (options.channel !== "api") {
      await recordWebhookEvents(
        tx,
        { agentId: agent.id, agentIds: [agent.id] },
        turnEvents({
          conversation: {
            id: conversationId,
            agentId: agent.id,
            channel: conversation?.channel ?? options.channel,
            status: finalStatus,
            visitor: { name: visitor.name ?? null, email: visitor.email ?? null, phone: visitor.phone ?? null },
          },
          created: conversation === null,
          previousStatus: conversation?.status ?? null,
          clientVariables: request.clientVariables ?? {},
          userText: request.message,
          result,
          firstSequence,
          now,
        }),
        now,
      );
    }

    const response: MessageResponse = {
      conversationId,
      reply: result.reply,
      tokenUsage: result.tokenUsage,
      toolCalls: result.toolCalls,
      richContent: result.richContent,
      handoffRequested: result.handoffRequested,
      status: finalStatus,
    };
    if (options.idempotency) {
      const stored: StoredResponse = { status: 200, body: response };
      const saved = await storeResponse(tx, {
        agentId: agent.id,
        key: options.idempotency.key,
        hash: options.idempotency.hash,
        response: stored,
        now,
      });
      if (!saved) throw new IdempotentRaceLost();
    }
    // Last: the reservation locks the agent's usage row until commit, and every turn of the agent
    // needs that row, so concurrent turns wait only for this statement and the commit, not for the
    // writes above. Atomic wherever it stands: a refusal rolls the whole turn back.
    await reserveUsage(tx, agent, { month, startsConversation, tokens: result.tokenUsage, at: now, channel: options.channel });
    return response;
  }, TRANSACTION_OPTIONS);

  logger.info("message turn", {
    agentId: agent.id,
    conversationId: response.conversationId,
    channel: options.channel,
    newConversation: startsConversation,
    tokenUsage: response.tokenUsage,
    toolCalls: response.toolCalls.map((call) => call.name),
    handoffRequested: response.handoffRequested,
    status: response.status,
  });
  return response;
}

async function runEngine(
  ctx: AppContext,
  agent: MessagingAgent,
  input: {
    history: EngineHistoryMessage[];
    message: string;
    visitor: EngineVisitor;
    variables: Record<string, string>;
    signal?: AbortSignal;
    clientTools?: ClientTool[];
  },
): Promise<EngineResult> {
  const engineAgent = { id: agent.id, name: agent.name, engine: agent.engine, instructions: agent.instructions };
  let result: EngineResult;
  try {
    result = await ctx.engineFor(engineAgent).run({ agent: engineAgent, status: "active", ...input });
  } catch (error) {
    if (isAppError(error)) throw error;
    // Name and message only: an engine error may quote the prompt, so no stack and no fields of it.
    logger.error("engine failed", { agentId: agent.id, engine: agent.engine, error: error instanceof Error ? error.name : "unknown" });
    throw new AppError("INTERNAL");
  }
  // Token counters are integers; an engine reporting garbage must not poison the month's usage.
  const tokenUsage = Number.isFinite(result.tokenUsage) ? Math.max(0, Math.round(result.tokenUsage)) : 0;
  return { ...result, tokenUsage };
}

/**
 * An escalated conversation is the person's now: the engine does not answer, the message is stored
 * for them, and the reply says so. Tokens are counted like the knowledge agent's (message + reply).
 */
function escalatedTurn(message: string): EngineResult {
  return {
    reply: ESCALATED_REPLY,
    tokenUsage: countTokens(message) + countTokens(ESCALATED_REPLY),
    toolCalls: [],
    richContent: [],
    handoffRequested: false,
  };
}

/** The conversation's latest messages, oldest first, as the engines read them. */
async function loadHistory(ctx: AppContext, conversationId: string): Promise<EngineHistoryMessage[]> {
  const rows = await ctx.db.prisma.message.findMany({
    where: { conversationId },
    orderBy: { sequence: "desc" },
    take: TURN_HISTORY_MESSAGES,
    select: { role: true, text: true, toolCalls: true, richContent: true },
  });
  return rows.reverse().map((row) => ({
    role: row.role,
    text: row.text,
    toolCalls: Array.isArray(row.toolCalls) ? (row.toolCalls as unknown as ToolCall[]) : [],
    ...(row.role === "agent" ? { answered: hasArticles(row.richContent) } : {}),
  }));
}

/** An agent message answered from the knowledge base when it linked articles. */
function hasArticles(richContent: unknown): boolean {
  return Array.isArray(richContent) && richContent.some((item) => (item as { type?: unknown } | null)?.type === "articles");
}

function asStringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * Adds the turn's two messages to an existing conversation: the row lock of this UPDATE orders
 * concurrent turns of one conversation, and the returned count gives each its sequence numbers.
 * Escalation is one-way here (an admin hands a conversation back); visitor fields are replaced
 * only when sent; variables are merged.
 */
async function advanceConversation(
  tx: Pick<Prisma.TransactionClient, "$queryRaw">,
  change: {
    id: string;
    agentId: string;
    handoff: boolean;
    visitor: EngineVisitor;
    clientVariables: Record<string, string>;
    now: Date;
  },
): Promise<{ messageCount: number; status: MessageResponse["status"] }> {
  const rows = await tx.$queryRaw<Array<{ messageCount: number; status: MessageResponse["status"] }>>`
    UPDATE "Conversation"
    SET "messageCount" = "messageCount" + 2,
        "status" = CASE WHEN ${change.handoff}::boolean THEN 'escalated'::"ConversationStatus" ELSE "status" END,
        "visitorEmail" = COALESCE(${change.visitor.email ?? null}::text, "visitorEmail"),
        "visitorName" = COALESCE(${change.visitor.name ?? null}::text, "visitorName"),
        "visitorPhone" = COALESCE(${change.visitor.phone ?? null}::text, "visitorPhone"),
        "clientVariables" = "clientVariables" || ${JSON.stringify(change.clientVariables)}::jsonb,
        "updatedAt" = (${change.now.toISOString()}::timestamptz AT TIME ZONE 'UTC')
    WHERE "id" = ${change.id} AND "agentId" = ${change.agentId}
    RETURNING "messageCount", "status"::text AS "status"`;
  const row = rows[0];
  if (!row) throw new AppError("CONVERSATION_NOT_FOUND");
  return row;
}
