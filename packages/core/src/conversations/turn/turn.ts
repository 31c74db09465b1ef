// One conversation turn, for any channel: find the conversation (of this agent only), check the
// quotas, answer (turn-answer.ts: the engine, no writes), then write everything in ONE transaction:
// the conversation (created, or its counters, status, visitor and variables updated) and the user
// and agent messages (turn-store.ts), the knowledge gap when the agent could not answer, the
// webhook events (widget channel only), the idempotency record if any, and last the month's usage
// (atomically within the limits). Nothing is written when the engine or the database fails.
import type { Prisma } from "@parley/db";
import type { MessagingAgent } from "../../agents/keys/message-auth.ts";
import { turnGapKind } from "../../engine/gaps.ts";
import type { ClientTool, EngineResult, EngineVisitor, RichContentItem, ToolCall } from "../../engine/types.ts";
import { knowledgeGapRow } from "../../knowledge/gaps/gap-rows.ts";
import { publicName } from "../../people/team.ts";
import { AppError } from "../../platform/errors.ts";
import { logger } from "../../platform/logger.ts";
import { type WireStatus, wireStatus } from "../../platform/wire-status.ts";
import { assertQuotaAvailable, reserveUsage, usageMonth } from "../../usage/quotas.ts";
import { recordWebhookEvents } from "../../webhooks/events.ts";
import type { ConversationContext } from "../context.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import { publishInbox } from "../live.ts";
import { storeResponse } from "./idempotency.ts";
import type { MessageRequest } from "./message-schema.ts";
import { answerTurn } from "./turn-answer.ts";
import { turnEvents } from "./turn-events.ts";
import { advanceConversation, createConversation, recordTurnActivity, type StoredConversation, storeMessages } from "./turn-store.ts";

/** The 200 body of spec 2.2: exactly these seven fields. */
export interface MessageResponse {
  conversationId: string;
  reply: string;
  tokenUsage: number;
  toolCalls: ToolCall[];
  richContent: RichContentItem[];
  handoffRequested: boolean;
  status: WireStatus;
}

export interface TurnOptions {
  channel: "api" | "widget";
  /** Store the response under this Idempotency-Key, in the turn's transaction. */
  idempotency?: { key: string; hash: string };
  signal?: AbortSignal;
  /**
   * Voice: a spoken turn (the widget's voice mode). Both messages are marked as spoken, and the
   * webhook event names the channel "voice". `stop` ends the reply where it is (barge-in): the
   * engine stops writing and what it wrote is stored.
   */
  voice?: { stop: AbortSignal };
  /** Widget: the page's variables, stored on a new conversation and given to the engine. */
  pageVariables?: Record<string, string>;
  /** Widget: the page a new conversation starts on. */
  pageUrl?: string;
  /** Widget: tools the page registered, which the LLM engine may call (run in the browser). */
  clientTools?: ClientTool[];
  /**
   * Widget: the page's id of the visitor's message, stored with it. A turn whose message this
   * conversation already holds fails on the unique index (client-message.ts) and stores nothing.
   */
  clientMessageId?: string;
  /**
   * Widget: a turn that starts a conversation keeps the page's key of its first message
   * (client-message.ts), so that the message sent again joins this conversation. A concurrent turn
   * that started one under the same key first makes this one fail on the unique index, storing nothing.
   */
  firstMessageKeyHash?: string;
  /** The streaming forms: pieces of the reply as the engine writes them (before anything is stored). */
  onDelta?: (text: string) => void;
  /** Told the stored messages' ids once the turn has committed (the widget's frames name them). */
  onStored?: (stored: StoredTurnIds) => void;
  /**
   * A team member's test chat (the agent's page): the conversation is marked as a test; no quota is
   * checked or used, no webhook is sent, the inbox is not told. Only test conversations continue.
   */
  test?: boolean;
}

export interface StoredTurnIds {
  userMessageId: string;
  agentMessageId: string;
  createdAt: Date;
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

const conversationSelect = {
  id: true,
  status: true,
  channel: true,
  visitorEmail: true,
  visitorName: true,
  visitorPhone: true,
  clientVariables: true,
  pageVariables: true,
  joinedBy: { select: { name: true } },
} satisfies Prisma.ConversationSelect;
type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>;

/** What one turn works with once the engine has answered. */
interface Turn {
  agent: MessagingAgent;
  request: MessageRequest;
  options: TurnOptions;
  /** The existing conversation as read before the turn, or null when the turn starts one. */
  conversation: ConversationRow | null;
  visitor: EngineVisitor;
  result: EngineResult;
  /** The status this turn writes (statusSetByTurn), or null to leave it as it is. */
  setStatus: "escalated" | null;
  now: Date;
}

export async function runTurn(
  ctx: ConversationContext,
  agent: MessagingAgent,
  request: MessageRequest,
  options: TurnOptions,
): Promise<MessageResponse> {
  const now = ctx.now();
  const month = usageMonth(now);
  const test = options.test === true;
  const conversation = await findConversation(ctx, agent, request.conversationId, test);
  const startsConversation = conversation === null;
  if (!test) await assertQuotaAvailable(ctx.db, agent, { month, startsConversation, channel: options.channel });

  const visitor = visitorOf(request, conversation);
  const result = await answerTurn(ctx, agent, {
    conversation: conversation && {
      id: conversation.id,
      status: conversation.status,
      person: conversation.joinedBy ? publicName(conversation.joinedBy) : null,
    },
    message: request.message,
    visitor,
    variables: variablesOf(request, conversation, options),
    signal: options.signal,
    stopSignal: options.voice?.stop,
    clientTools: options.clientTools,
    onDelta: options.onDelta,
  });
  const turn: Turn = { agent, request, options, conversation, visitor, result, setStatus: statusSetByTurn(result), now };

  const { response, ids } = await ctx.db.prisma.$transaction(async (tx) => {
    const stored = await storeConversation(tx, turn);
    const ids = await storeMessages(tx, stored, {
      userText: request.message,
      result,
      now,
      voice: options.voice !== undefined,
      clientMessageId: options.clientMessageId ?? null,
    });
    await recordTurnActivity(tx, stored, now);
    if (!test) await recordKnowledgeGap(tx, turn, stored.conversationId);
    await emitTurnWebhooks(tx, turn, stored);
    const response = responseOf(result, stored);
    await rememberResponse(tx, turn, response);
    // Last: the reservation locks the agent's usage row until commit, and every turn of the agent
    // needs that row, so concurrent turns wait only for this statement and the commit, not for the
    // writes above. Atomic wherever it stands: a refusal rolls the whole turn back.
    if (!test) await reserveUsage(tx, agent, { month, startsConversation, tokens: result.tokenUsage, at: now, channel: options.channel });
    return { response, ids };
  }, TRANSACTION_OPTIONS);

  logTurn(turn, response);
  options.onStored?.({ ...ids, createdAt: now });
  if (test) return response;
  // The workspace's open panels list and show this conversation: they refetch it.
  await publishInbox(ctx.live, agent.workspaceId, {
    conversationId: response.conversationId,
    escalated: turn.setStatus === "escalated" && response.status === "escalated" && conversation?.status !== "escalated",
  });
  return response;
}

/** The conversation named by the request, of this agent and kind (test or real) only; 404 when there is none. */
async function findConversation(ctx: ConversationContext, agent: MessagingAgent, conversationId: string | undefined, test: boolean) {
  if (!conversationId) return null;
  const conversation = await ctx.db.prisma.conversation.findFirst({
    where: { id: conversationId, agentId: agent.id, test },
    select: conversationSelect,
  });
  if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  return conversation;
}

/** Who the engine talks to: what the request says, else what the conversation knows. */
function visitorOf(request: MessageRequest, conversation: ConversationRow | null): EngineVisitor {
  return {
    email: request.visitor?.email ?? conversation?.visitorEmail ?? undefined,
    name: request.visitor?.name?.trim() || conversation?.visitorName || undefined,
    phone: request.visitor?.phone ?? conversation?.visitorPhone ?? undefined,
  };
}

/** The engine's variables: the stored ones, overridden by this request's and the page's. */
function variablesOf(request: MessageRequest, conversation: ConversationRow | null, options: TurnOptions): Record<string, string> {
  return {
    ...asStringRecord(conversation?.clientVariables),
    ...asStringRecord(conversation?.pageVariables),
    ...request.clientVariables,
    ...options.pageVariables,
  };
}

function asStringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * Handoff: the one place where a turn decides the conversation's status. A turn that asks for a
 * person escalates the conversation; any other turn leaves the status as it is. Escalation is
 * one-way here (an admin hands a conversation back). The status written and the escalation
 * webhooks both follow from this.
 */
function statusSetByTurn(result: EngineResult): "escalated" | null {
  return result.handoffRequested ? "escalated" : null;
}

/** Creates the conversation or advances the existing one by the turn's two messages. */
function storeConversation(tx: Prisma.TransactionClient, turn: Turn): Promise<StoredConversation> {
  const { agent, request, options, conversation, visitor, setStatus, now } = turn;
  if (conversation === null) {
    return createConversation(tx, {
      agentId: agent.id,
      channel: options.channel,
      setStatus,
      visitor: { email: request.visitor?.email ?? null, name: visitor.name ?? null, phone: request.visitor?.phone ?? null },
      clientVariables: request.clientVariables ?? {},
      pageVariables: options.pageVariables ?? {},
      firstPageUrl: options.pageUrl ?? null,
      firstMessageKeyHash: options.firstMessageKeyHash ?? null,
      test: options.test === true,
      now,
    });
  }
  return advanceConversation(tx, {
    id: conversation.id,
    agentId: agent.id,
    setStatus,
    visitor: { email: request.visitor?.email, name: request.visitor?.name?.trim() || undefined, phone: request.visitor?.phone },
    clientVariables: request.clientVariables ?? {},
    now,
  });
}

/**
 * A turn the agent could not answer (turnGapKind) is kept for the panel's gaps page: one insert,
 * linked to its conversation so that erasing the visitor's data takes their words from it too.
 * A team member's test chat is not a visitor's gap.
 */
async function recordKnowledgeGap(tx: Prisma.TransactionClient, turn: Turn, conversationId: string): Promise<void> {
  const kind = turnGapKind(turn.result);
  if (!kind) return;
  await tx.knowledgeGap.create({
    data: knowledgeGapRow(turn.agent.id, kind, turn.request.message, turn.now, conversationId),
    select: { id: true },
  });
}

/**
 * Spec 6: the HTTP API emits no events of its own (its caller has the response); the widget and
 * SDK channel does, in the turn's transaction (the webhook outbox).
 */
async function emitTurnWebhooks(tx: Prisma.TransactionClient, turn: Turn, stored: StoredConversation): Promise<void> {
  const { agent, request, options, conversation, visitor, result, now } = turn;
  if (options.channel === "api" || options.test) return;
  await recordWebhookEvents(
    tx,
    { agentId: agent.id, agentIds: [agent.id] },
    turnEvents({
      conversation: {
        id: stored.conversationId,
        agentId: agent.id,
        channel: conversation?.channel ?? options.channel,
        status: stored.status,
        visitor: { name: visitor.name ?? null, email: visitor.email ?? null, phone: visitor.phone ?? null },
      },
      created: conversation === null,
      previousStatus: stored.previousStatus === null ? null : wireStatus(stored.previousStatus),
      escalated: turn.setStatus === "escalated",
      clientVariables: request.clientVariables ?? {},
      userText: request.message,
      result,
      channel: options.voice ? "voice" : "widget",
      firstSequence: stored.firstSequence,
      now,
    }),
    now,
  );
}

function responseOf(result: EngineResult, stored: StoredConversation): MessageResponse {
  return {
    conversationId: stored.conversationId,
    reply: result.reply,
    tokenUsage: result.tokenUsage,
    toolCalls: result.toolCalls,
    richContent: result.richContent,
    handoffRequested: result.handoffRequested,
    status: stored.status,
  };
}

/** Stores the response under the request's Idempotency-Key; a concurrent holder of the key wins. */
async function rememberResponse(tx: Prisma.TransactionClient, turn: Turn, response: MessageResponse): Promise<void> {
  const { idempotency } = turn.options;
  if (!idempotency) return;
  const saved = await storeResponse(tx, {
    agentId: turn.agent.id,
    key: idempotency.key,
    hash: idempotency.hash,
    response: { status: 200, body: response },
    now: turn.now,
  });
  if (!saved) throw new IdempotentRaceLost();
}

function logTurn(turn: Turn, response: MessageResponse): void {
  logger.info("message turn", {
    agentId: turn.agent.id,
    conversationId: response.conversationId,
    channel: turn.options.voice ? "voice" : turn.options.channel,
    newConversation: turn.conversation === null,
    tokenUsage: response.tokenUsage,
    toolCalls: response.toolCalls.map((call) => call.name),
    handoffRequested: response.handoffRequested,
    status: response.status,
  });
}
