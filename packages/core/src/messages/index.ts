// POST /api/agent/{agentId}/messages (spec 4.1), transport-independent: the REST route hands over
// the headers and the body stream and maps the result. The steps run in the spec's order:
// agent, API enabled, bearer key (failed keys limited per IP), rate limit per agent, body, the
// Idempotency-Key, the conversation, quotas, the turn. From the rate limit on, every outcome
// (errors included) carries the RateLimit headers.
import type { AppContext } from "../context.ts";
import { AppError, isAppError } from "../errors.ts";
import { describeError, logger } from "../logger.ts";
import { enforceRateLimit } from "../ratelimit/index.ts";
import { authenticateAgent } from "./auth.ts";
import { readJsonBody } from "./body.ts";
import { findStoredResponse, parseIdempotencyKey, requestHash } from "./idempotency.ts";
import { parseMessageRequest } from "./schema.ts";
import { IdempotentRaceLost, type MessageResponse, runTurn } from "./turn.ts";

export { authenticateAgent, type MessagingAgent } from "./auth.ts";
export { usageMonth } from "./quotas.ts";
export { type MessageRequest, messageRequestSchema } from "./schema.ts";
export { ESCALATED_REPLY, type MessageResponse, runTurn } from "./turn.ts";

export interface SendMessageInput {
  agentId: string;
  /** Header values as received (null when absent). */
  authorization: string | null;
  contentType: string | null;
  contentLength: string | null;
  idempotencyKey: string | null;
  body: ReadableStream<Uint8Array> | null;
  clientIp: string;
  signal?: AbortSignal;
}

export interface SendMessageResult {
  status: number;
  body: MessageResponse | unknown;
  /** Response headers (lower-case names): RateLimit-*, and Idempotent-Replayed on a replay. */
  headers: Record<string, string>;
}

export async function sendMessage(ctx: AppContext, input: SendMessageInput): Promise<SendMessageResult> {
  const agent = await authenticateAgent(ctx.db, ctx.limiters, input);
  const rateLimitHeaders = await enforceRateLimit(ctx.limiters.messages, agent.id);
  try {
    const idempotencyKey = parseIdempotencyKey(input.idempotencyKey);
    const request = parseMessageRequest(await readJsonBody(input));
    const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(request) } : undefined;

    if (idempotency) {
      const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
      if (stored) return replay(stored, rateLimitHeaders);
    }
    try {
      const body = await runTurn(ctx, agent, request, { channel: "api", idempotency, signal: input.signal });
      return { status: 200, body, headers: rateLimitHeaders };
    } catch (error) {
      if (!(error instanceof IdempotentRaceLost) || !idempotency) throw error;
      // The concurrent request with this key committed its turn; ours was rolled back.
      const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
      if (!stored) throw new AppError("INTERNAL");
      return replay(stored, rateLimitHeaders);
    }
  } catch (error) {
    throw withHeaders(error, rateLimitHeaders);
  }
}

/** The order of spec 2.2; jsonb storage does not keep the order of keys. */
const RESPONSE_FIELDS = ["conversationId", "reply", "tokenUsage", "toolCalls", "richContent", "handoffRequested", "status"] as const;

function replay(stored: { status: number; body: unknown }, headers: Record<string, string>): SendMessageResult {
  const body = stored.body as Record<string, unknown>;
  const ordered = stored.status === 200 ? Object.fromEntries(RESPONSE_FIELDS.map((field) => [field, body[field]])) : body;
  return { status: stored.status, body: ordered, headers: { ...headers, "idempotent-replayed": "true" } };
}

/** The same error with the RateLimit headers added; unknown errors become a logged 500. */
function withHeaders(error: unknown, headers: Record<string, string>): AppError {
  if (isAppError(error)) return new AppError(error.code, { details: error.details, headers: { ...headers, ...error.headers } });
  logger.error("message turn failed", { error: describeError(error) });
  return new AppError("INTERNAL", { headers });
}
