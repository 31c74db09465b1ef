// What the agent answers in a turn, before anything is written: the engine's reply (from the
// conversation's recent history), or, once a person has been asked for, the escalated reply
// (handoff.ts: who joined, else when a person usually replies).
// Engines do no writes, so a failure here leaves nothing behind.

import type { MessagingAgent } from "../../agents/keys/message-auth.ts";
import { TURN_HISTORY_MESSAGES } from "../../engine/limits.ts";
import { countTokens } from "../../engine/tokens.ts";
import type { ClientTool, EngineHistoryMessage, EngineResult, EngineVisitor, ToolCall } from "../../engine/types.ts";
import { AppError, isAppError } from "../../platform/errors.ts";
import { logger } from "../../platform/logger.ts";
import type { ConversationState } from "../../platform/wire-status.ts";
import type { ConversationContext } from "../context.ts";
import { escalatedReply, typicalReplyMs } from "../handoff.ts";

export interface AnswerInput {
  /**
   * The existing conversation, or null for the first turn of a new one; `person`: the public name
   * of the team member who joined it (took it over or replied), else null.
   */
  conversation: { id: string; status: ConversationState; person: string | null } | null;
  message: string;
  visitor: EngineVisitor;
  variables: Record<string, string>;
  signal?: AbortSignal;
  /** Ends the reply where it is, keeping what was written (a spoken reply cut short). */
  stopSignal?: AbortSignal;
  clientTools?: ClientTool[];
  onDelta?: (text: string) => void;
}

export async function answerTurn(ctx: ConversationContext, agent: MessagingAgent, input: AnswerInput): Promise<EngineResult> {
  const { conversation, ...engineInput } = input;
  // Only an escalated conversation is a person's: a resolved one is reopened and the agent answers.
  if (conversation?.status === "escalated") {
    const typical = conversation.person ? null : await typicalReplyMs(ctx.db, agent.workspaceId, ctx.now());
    return escalatedTurn(input.message, escalatedReply({ person: conversation.person, typicalReplyMs: typical }));
  }
  return runEngine(ctx, agent, { ...engineInput, history: conversation ? await loadHistory(ctx, conversation.id) : [] });
}

async function runEngine(
  ctx: ConversationContext,
  agent: MessagingAgent,
  input: Omit<AnswerInput, "conversation"> & { history: EngineHistoryMessage[] },
): Promise<EngineResult> {
  const engineAgent = {
    id: agent.id,
    name: agent.name,
    engine: agent.engine,
    instructions: agent.instructions,
    answerBeyondArticles: agent.answerBeyondArticles,
  };
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
function escalatedTurn(message: string, reply: string): EngineResult {
  return {
    reply,
    tokenUsage: countTokens(message) + countTokens(reply),
    toolCalls: [],
    richContent: [],
    handoffRequested: false,
  };
}

/** The conversation's latest messages, oldest first, as the engines read them. */
async function loadHistory(ctx: ConversationContext, conversationId: string): Promise<EngineHistoryMessage[]> {
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
