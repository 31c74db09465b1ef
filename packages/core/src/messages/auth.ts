// Who may send a message (spec 5, 7): the agent must exist and be active, have its HTTP API
// enabled and a key, and the bearer token must be that key. Failed keys are limited per client IP.
import type { Database } from "@parley/db";
import { AppError, isAppError } from "../errors.ts";
import { agentKeyMatches } from "../keys.ts";
import { enforceRateLimit } from "../ratelimit/index.ts";
import type { RateLimiter, RateLimiters } from "../ratelimit/types.ts";

/** The agent fields a turn needs, read once per request. */
export interface MessagingAgent {
  id: string;
  name: string;
  engine: "knowledge" | "llm";
  instructions: string;
  monthlyConversationLimit: number | null;
  monthlyTokenLimit: number | null;
  usageLimit: number | null;
}

const agentSelect = {
  id: true,
  name: true,
  active: true,
  httpApiEnabled: true,
  keyHash: true,
  engine: true,
  instructions: true,
  monthlyConversationLimit: true,
  monthlyTokenLimit: true,
  usageLimit: true,
} as const;

// RFC 6750 challenges. Every 401 of the messages API carries one; a bad token also says why.
const CHALLENGE = 'Bearer realm="parley"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="parley", error="invalid_token"';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | null): string | null {
  const match = header?.match(/^Bearer +(\S+) *$/i);
  return match?.[1] ?? null;
}

export async function authenticateAgent(
  db: Database,
  limiters: RateLimiters,
  request: { agentId: string; authorization: string | null; clientIp: string },
): Promise<MessagingAgent> {
  const agent = await db.prisma.agent.findUnique({ where: { id: request.agentId }, select: agentSelect });
  if (!agent?.active) throw new AppError("AGENT_NOT_FOUND");
  if (!agent.httpApiEnabled) throw new AppError("HTTP_API_DISABLED");

  const token = bearerToken(request.authorization);
  if (token === null) throw new AppError("MISSING_BEARER_TOKEN", { headers: { "www-authenticate": CHALLENGE } });
  if (agent.keyHash === null) throw new AppError("KEY_NOT_CONFIGURED", { headers: { "www-authenticate": CHALLENGE } });

  // An IP over its failed-key budget is refused before its token is compared, so that a correct
  // guess looks exactly like a wrong one while the block lasts.
  assertNotBlocked(limiters.failedKeys, request.clientIp);
  if (!agentKeyMatches(token, agent.keyHash)) {
    await countFailedKey(limiters.failedKeys, request.clientIp);
    throw new AppError("INVALID_BEARER_TOKEN", { headers: { "www-authenticate": INVALID_TOKEN_CHALLENGE } });
  }

  const { active: _active, httpApiEnabled: _enabled, keyHash: _hash, ...messagingAgent } = agent;
  return messagingAgent;
}

// IPs refused by the shared failed-key limiter, per limiter (so per AppContext), until the refusal
// ends (wall-clock time, like the limiter's own windows). The shared store counts the failures; this memo only avoids asking it on every request,
// which the limiter interface could not do without counting one.
const blockedIps = new WeakMap<RateLimiter, Map<string, number>>();
const MAX_REMEMBERED_IPS = 10_000;

function assertNotBlocked(limiter: RateLimiter, ip: string): void {
  const until = blockedIps.get(limiter)?.get(ip);
  if (until === undefined) return;
  const seconds = Math.ceil((until - Date.now()) / 1000);
  if (seconds <= 0) {
    blockedIps.get(limiter)?.delete(ip);
    return;
  }
  throw new AppError("RATE_LIMITED", { headers: { "retry-after": String(seconds) } });
}

async function countFailedKey(limiter: RateLimiter, ip: string): Promise<void> {
  try {
    await enforceRateLimit(limiter, ip);
  } catch (error) {
    if (isAppError(error) && error.code === "RATE_LIMITED") remember(limiter, ip, Number(error.headers["retry-after"] ?? 60));
    throw error;
  }
}

function remember(limiter: RateLimiter, ip: string, seconds: number): void {
  const now = Date.now();
  let ips = blockedIps.get(limiter);
  if (!ips) {
    ips = new Map();
    blockedIps.set(limiter, ips);
  }
  if (ips.size >= MAX_REMEMBERED_IPS) {
    for (const [known, until] of ips) if (until <= now) ips.delete(known);
    if (ips.size >= MAX_REMEMBERED_IPS) ips.clear();
  }
  ips.set(ip, now + seconds * 1000);
}
