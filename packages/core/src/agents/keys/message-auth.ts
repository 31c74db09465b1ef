// Who may send a message (spec 5, 7): the agent must exist and be active, have its HTTP API
// enabled and a key, and the bearer token must be that key. Failed keys are limited per client IP.
import type { Database } from "@parley/db";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { limitAddress } from "../../platform/client-ip.ts";
import { AppError } from "../../platform/errors.ts";
import { enforceRateLimit } from "../../platform/ratelimit/index.ts";
import type { RateLimiter, RateLimiters } from "../../platform/ratelimit/types.ts";
import { AGENTS_ERRORS } from "../errors.ts";
import { agentKeyMatches } from "./secrets.ts";

/** The agent fields a turn needs, read once per request. */
export interface MessagingAgent {
  id: string;
  /** The workspace whose inbox shows the agent's conversations. */
  workspaceId: string;
  name: string;
  engine: "knowledge" | "llm";
  instructions: string;
  /** The LLM engine may answer beyond the retrieved help passages. */
  answerBeyondArticles: boolean;
  monthlyConversationLimit: number | null;
  monthlyTokenLimit: number | null;
  usageLimit: number | null;
  /** The widget's share of the monthly quotas (null: no cap of its own). */
  widgetMonthlyConversationLimit: number | null;
  widgetMonthlyTokenLimit: number | null;
}

/** The columns of a MessagingAgent: what every caller of runTurn reads of the agent. */
export const messagingAgentSelect = {
  id: true,
  workspaceId: true,
  name: true,
  engine: true,
  instructions: true,
  answerBeyondArticles: true,
  monthlyConversationLimit: true,
  monthlyTokenLimit: true,
  usageLimit: true,
  widgetMonthlyConversationLimit: true,
  widgetMonthlyTokenLimit: true,
} as const satisfies Record<keyof MessagingAgent, true>;

const agentSelect = { ...messagingAgentSelect, active: true, httpApiEnabled: true, keyHash: true } as const;

// RFC 6750 challenges. Every 401 of the messages API carries one; a bad token also says why.
const CHALLENGE = 'Bearer realm="parley"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="parley", error="invalid_token"';

export async function authenticateAgent(
  db: Database,
  limiters: RateLimiters,
  /** `token`: the bearer token the request presented; null when it had none (or no Bearer header). */
  request: { agentId: string; token: string | null; clientIp: string },
): Promise<MessagingAgent> {
  const agent = await db.prisma.agent.findUnique({ where: { id: request.agentId }, select: agentSelect });
  if (!agent?.active) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
  if (!agent.httpApiEnabled) throw new AppError(AGENTS_ERRORS.HTTP_API_DISABLED);

  const { token } = request;
  if (token === null) throw new AppError(AGENTS_ERRORS.MISSING_BEARER_TOKEN, { headers: { "www-authenticate": CHALLENGE } });
  if (agent.keyHash === null) throw new AppError(AGENTS_ERRORS.KEY_NOT_CONFIGURED, { headers: { "www-authenticate": CHALLENGE } });

  if (!agentKeyMatches(token, agent.keyHash)) {
    await countFailedKey(limiters.failedKeys, request.clientIp);
    throw new AppError(AGENTS_ERRORS.INVALID_BEARER_TOKEN, { headers: { "www-authenticate": INVALID_TOKEN_CHALLENGE } });
  }

  const { active: _active, httpApiEnabled: _enabled, keyHash: _hash, ...messagingAgent } = agent;
  return messagingAgent;
}

/**
 * Counts a wrong key for the client IP in the shared limiter (one store for every instance), and
 * answers 429 instead of 401 once the IP is over its budget for the window.
 *
 * The key is compared first and a valid key always passes, even from a blocked IP: a host that
 * still sends an old key after a rotation must not lock out its other, valid integrations. That
 * gives a guesser no oracle:
 * - whether a wrong key gets 401 or 429 depends only on the IP's count of failures, never on the
 *   key sent, so the difference says nothing about any key (only that this IP kept failing);
 * - the one answer that depends on the key is success, which any authentication reveals; the block
 *   cannot be what protects keys, since a key is 256 random bits (about 2^255 guesses at any rate)
 *   and the comparison is of SHA-256 digests in constant time;
 * - a valid key of another agent is a wrong key here like any other (429 while blocked).
 * What the block does is tell a misconfigured or hostile client to back off (Retry-After) after a
 * burst of failures, on every instance at once.
 */
async function countFailedKey(limiter: RateLimiter, ip: string): Promise<void> {
  await enforceRateLimit(limiter, limitAddress(ip));
}
