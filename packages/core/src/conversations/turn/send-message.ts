// POST /api/agent/{agentId}/messages (spec 4.1), whatever carries it: the transport hands over the
// bearer token, the Idempotency-Key and a reader of the JSON body (HTTP parsing is the transport's)
// and writes the result. The steps run in the spec's order: agent, API enabled, bearer key (failed
// keys limited per IP), rate limit per agent, the Idempotency-Key, the body, the conversation,
// quotas, the turn. From the rate limit on, every outcome (errors included) carries the RateLimit
// headers.

import { authenticateAgent, type MessagingAgent } from "../../agents/keys/message-auth.ts";
import { AppError } from "../../platform/errors.ts";
import { enforceRateLimit } from "../../platform/ratelimit/index.ts";
import { errorResult, type HttpResult, jsonResult } from "../../platform/results.ts";
import type { ConversationContext } from "../context.ts";
import { acceptsEventStream, asAppError, eventStreamReplay, type SettledTurn, streamTurn } from "./event-stream.ts";
import { findStoredResponse, parseIdempotencyKey, requestHash } from "./idempotency.ts";
import { type MessageRequest, parseMessageRequest } from "./message-schema.ts";
import { IdempotentRaceLost, runTurn } from "./turn.ts";

export interface SendMessageInput {
  agentId: string;
  /** The bearer token presented; null without one. */
  token: string | null;
  /** The Idempotency-Key header as received (null when absent). */
  idempotencyKey: string | null;
  /** The Accept header as received (null when absent): `text/event-stream` asks for the streaming form. */
  accept?: string | null;
  /** Reads and parses the JSON body (400 `Invalid request` naming what is wrong); called once, after the key checks. */
  readBody(): Promise<unknown>;
  clientIp: string;
  signal?: AbortSignal;
}

/**
 * The whole exchange as a result: 200 with the turn, a replay, or the spec's error body; in the
 * streaming form (event-stream.ts) the same outcomes as server-sent events.
 */
export async function sendMessage(ctx: ConversationContext, input: SendMessageInput): Promise<HttpResult> {
  const streaming = acceptsEventStream(input.accept ?? null);
  let rateLimitHeaders: Record<string, string> = {};
  try {
    const agent = await authenticateAgent(ctx.db, ctx.limiters, input);
    rateLimitHeaders = await enforceRateLimit(ctx.limiters.messages, agent.id);
    const idempotencyKey = parseIdempotencyKey(input.idempotencyKey);
    const request = parseMessageRequest(await input.readBody());
    const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(request) } : undefined;

    if (idempotency) {
      const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
      if (stored) {
        const replayed = replay(stored, rateLimitHeaders);
        return streaming && replayed.status === 200 ? eventStreamReplay(replayed.json, replayed.headers) : replayed;
      }
    }
    const turn = (onDelta?: (text: string) => void) => settleTurn(ctx, agent, request, { idempotency, signal: input.signal, onDelta });
    if (streaming) return await streamTurn(turn, rateLimitHeaders);
    const settled = await turn();
    return jsonResult(settled.body, 200, { ...rateLimitHeaders, ...settled.headers });
  } catch (error) {
    return errorResult(asAppError(error), rateLimitHeaders);
  }
}

/**
 * Runs the turn and settles it to the 200 body: its response, or, when a concurrent request with
 * the same Idempotency-Key committed first (ours was rolled back), that request's stored response.
 */
async function settleTurn(
  ctx: ConversationContext,
  agent: MessagingAgent,
  request: MessageRequest,
  options: { idempotency?: { key: string; hash: string }; signal?: AbortSignal; onDelta?: (text: string) => void },
): Promise<SettledTurn> {
  const { idempotency } = options;
  try {
    return { body: await runTurn(ctx, agent, request, { channel: "api", ...options }), headers: {} };
  } catch (error) {
    if (!(error instanceof IdempotentRaceLost) || !idempotency) throw error;
    const stored = await findStoredResponse(ctx.db, agent.id, idempotency.key, idempotency.hash, ctx.now());
    if (!stored) throw new AppError("INTERNAL");
    const replayed = replay(stored, {});
    return { body: replayed.json, headers: replayed.headers };
  }
}

/** The order of spec 2.2; jsonb storage does not keep the order of keys. */
const RESPONSE_FIELDS = ["conversationId", "reply", "tokenUsage", "toolCalls", "richContent", "handoffRequested", "status"] as const;

function replay(stored: { status: number; body: unknown }, headers: Record<string, string>): HttpResult {
  const body = stored.body as Record<string, unknown>;
  const ordered = stored.status === 200 ? Object.fromEntries(RESPONSE_FIELDS.map((field) => [field, body[field]])) : body;
  return jsonResult(ordered, stored.status, { ...headers, "idempotent-replayed": "true" });
}
