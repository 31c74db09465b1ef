// POST /api/agent/{agentId}/messages (spec 4.1), whatever carries it: the transport hands over the
// bearer token, the Idempotency-Key and a reader of the JSON body (HTTP parsing is the transport's)
// and writes the result. The steps run in the spec's order: agent, API enabled, bearer key (failed
// keys limited per IP), rate limit per agent, the Idempotency-Key, the body, the conversation,
// quotas, the turn. From the rate limit on, every outcome (errors included) carries the RateLimit
// headers.
import type { AppContext } from "../context.ts";
import { AppError, isAppError } from "../errors.ts";
import { describeError, logger } from "../logger.ts";
import { enforceRateLimit } from "../ratelimit/index.ts";
import { errorResult, type HttpResult, jsonResult } from "../results.ts";
import { authenticateAgent } from "./auth.ts";
import { findStoredResponse, parseIdempotencyKey, requestHash } from "./idempotency.ts";
import { parseMessageRequest } from "./schema.ts";
import { IdempotentRaceLost, runTurn } from "./turn.ts";

export { authenticateAgent, type MessagingAgent } from "./auth.ts";
export { usageMonth } from "./quotas.ts";
export { invalidRequest, type MessageRequest, messageRequestSchema } from "./schema.ts";
export { ESCALATED_REPLY, type MessageResponse, runTurn } from "./turn.ts";

export interface SendMessageInput {
  agentId: string;
  /** The bearer token presented; null without one. */
  token: string | null;
  /** The Idempotency-Key header as received (null when absent). */
  idempotencyKey: string | null;
  /** Reads and parses the JSON body (400 `Invalid request` naming what is wrong); called once, after the key checks. */
  readBody(): Promise<unknown>;
  clientIp: string;
  signal?: AbortSignal;
}

/** The whole exchange as a result: 200 with the turn, a replay, or the spec's error body. */
export async function sendMessage(ctx: AppContext, input: SendMessageInput): Promise<HttpResult> {
  let rateLimitHeaders: Record<string, string> = {};
  try {
    const agent = await authenticateAgent(ctx.db, ctx.limiters, input);
    rateLimitHeaders = await enforceRateLimit(ctx.limiters.messages, agent.id);
    const idempotencyKey = parseIdempotencyKey(input.idempotencyKey);
    const request = parseMessageRequest(await input.readBody());
    const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(request) } : undefined;

    if (idempotency) {
      const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
      if (stored) return replay(stored, rateLimitHeaders);
    }
    try {
      const body = await runTurn(ctx, agent, request, { channel: "api", idempotency, signal: input.signal });
      return jsonResult(body, 200, rateLimitHeaders);
    } catch (error) {
      if (!(error instanceof IdempotentRaceLost) || !idempotency) throw error;
      // The concurrent request with this key committed its turn; ours was rolled back.
      const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
      if (!stored) throw new AppError("INTERNAL");
      return replay(stored, rateLimitHeaders);
    }
  } catch (error) {
    if (!isAppError(error)) logger.error("message turn failed", { error: describeError(error) });
    return errorResult(isAppError(error) ? error : new AppError("INTERNAL"), rateLimitHeaders);
  }
}

/** The order of spec 2.2; jsonb storage does not keep the order of keys. */
const RESPONSE_FIELDS = ["conversationId", "reply", "tokenUsage", "toolCalls", "richContent", "handoffRequested", "status"] as const;

function replay(stored: { status: number; body: unknown }, headers: Record<string, string>): HttpResult {
  const body = stored.body as Record<string, unknown>;
  const ordered = stored.status === 200 ? Object.fromEntries(RESPONSE_FIELDS.map((field) => [field, body[field]])) : body;
  return jsonResult(ordered, stored.status, { ...headers, "idempotent-replayed": "true" });
}
