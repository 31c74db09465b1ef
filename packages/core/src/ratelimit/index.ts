// Parley's rate limits: @upstash/ratelimit's sliding window on one of three backends, chosen by
// configuration: Upstash Redis, a real Redis shared by all app instances, or this process (the
// same algorithm on plain maps, memory.ts).
import { z } from "zod";
import { AppError } from "../errors.ts";
import {
  FAILED_KEY_ATTEMPTS_PER_MINUTE,
  FAILED_SIGN_INS_PER_IP_PER_WINDOW,
  FAILED_SIGN_INS_PER_WINDOW,
  HELP_REQUESTS_PER_MINUTE,
  MESSAGES_PER_MINUTE,
  WIDGET_CONNECTION_SLOT_TTL_MS,
} from "../limits.ts";
import { type Backend, memoryBackend, redisBackend, upstashBackend } from "./backends.ts";
import { rateLimitHeaders, retryAfterSeconds } from "./headers.ts";
import type { RateLimiter, RateLimiters, RateLimitPolicy } from "./types.ts";

export type { RateLimiter, RateLimiters, RateLimitPolicy, RateLimitResult, SlotLimiter } from "./types.ts";

/** Every Parley key starts with this (then the caller's prefix, then the limiter's name). */
const KEY_PREFIX = "parley:rl";

const optionsSchema = z.object({
  redisUrl: z.string().min(1).optional(),
  upstash: z.object({ url: z.url(), token: z.string().min(1) }).optional(),
  /** Keeps test runs (or several deployments on one Redis) apart. */
  prefix: z.string().min(1).max(100).optional(),
  /**
   * Multiplies every limit. Only for the benchmark, which must not be throttled by the limits it
   * is not measuring: callers set it explicitly, it is never read from the environment.
   */
  scale: z.number().positive().finite().default(1),
});

export type RateLimitersOptions = z.input<typeof optionsSchema>;

/** Each limit of limits.ts once: per window of `windowSeconds`. */
const POLICIES = {
  messages: { name: "messages", limit: MESSAGES_PER_MINUTE, windowSeconds: 60 },
  help: { name: "help", limit: HELP_REQUESTS_PER_MINUTE, windowSeconds: 60 },
  failedKeys: { name: "failed-keys", limit: FAILED_KEY_ATTEMPTS_PER_MINUTE, windowSeconds: 60 },
  signIn: { name: "sign-in", limit: FAILED_SIGN_INS_PER_WINDOW, windowSeconds: 15 * 60 },
  signInIp: { name: "sign-in-ip", limit: FAILED_SIGN_INS_PER_IP_PER_WINDOW, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateLimitPolicy>;

/** Limiters of configured policies kept at most (distinct limit values in use; far fewer in practice). */
const MAX_CONFIGURED_LIMITERS = 1_000;

function chooseBackend(options: z.output<typeof optionsSchema>): Backend {
  if (options.upstash) return upstashBackend(options.upstash);
  if (options.redisUrl) return redisBackend(options.redisUrl);
  return memoryBackend();
}

export function createRateLimiters(input: RateLimitersOptions = {}): RateLimiters {
  const options = optionsSchema.parse(input);
  const backend = chooseBackend(options);
  const keyPrefix = options.prefix ? `${KEY_PREFIX}:${options.prefix}` : KEY_PREFIX;
  const scaled = (policy: RateLimitPolicy): RateLimitPolicy => ({
    ...policy,
    limit: Math.max(1, Math.round(policy.limit * options.scale)),
  });
  const makeLimiter = (policy: RateLimitPolicy): RateLimiter => {
    const limited = scaled(policy);
    return backend.limiter(`${keyPrefix}:${limited.name}`, limited);
  };
  // @upstash/ratelimit's own dynamic limits (2.2) are one value per limiter, not per identifier.
  const configured = new Map<string, RateLimiter>();
  return {
    messages: makeLimiter(POLICIES.messages),
    help: makeLimiter(POLICIES.help),
    failedKeys: makeLimiter(POLICIES.failedKeys),
    signIn: makeLimiter(POLICIES.signIn),
    signInIp: makeLimiter(POLICIES.signInIp),
    configured(policy) {
      const cacheKey = `${policy.name}|${policy.limit}|${policy.windowSeconds}`;
      let limiter = configured.get(cacheKey);
      if (!limiter) {
        if (configured.size >= MAX_CONFIGURED_LIMITERS) configured.clear();
        limiter = makeLimiter(policy);
        configured.set(cacheKey, limiter);
      }
      return limiter;
    },
    connections: backend.slots({
      prefix: `${keyPrefix}:widget-connections`,
      ttlMs: WIDGET_CONNECTION_SLOT_TTL_MS,
      scale: options.scale,
    }),
    backend: backend.kind,
    close: () => backend.close(),
  };
}

/**
 * Counts one request for `identifier`. Resolves with the RateLimit-Policy / RateLimit headers
 * when it may proceed; throws RATE_LIMITED (429) with those headers and Retry-After when not.
 */
export async function enforceRateLimit(limiter: RateLimiter, identifier: string): Promise<Record<string, string>> {
  const result = await limiter.limit(identifier);
  const now = Date.now();
  const headers = rateLimitHeaders(limiter.policy, result, now);
  if (result.success) return headers;
  throw new AppError("RATE_LIMITED", {
    headers: { ...headers, "retry-after": String(retryAfterSeconds(limiter.policy, result, now)) },
  });
}
