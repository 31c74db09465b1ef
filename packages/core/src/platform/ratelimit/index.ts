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

export type { SendCommand } from "./requester.ts";
export type { RateLimiter, RateLimiters, RateLimitPolicy, RateLimitResult, RemainingBudget, SlotLimiter } from "./types.ts";

/** Every Parley key starts with this (then the caller's prefix, then the limiter's name). */
export const KEY_PREFIX = "parley:rl";

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
  /**
   * Multiplies the widget's connection slots per IP on top of `scale`: the e2e suite's browsers all
   * connect from one address, and one of its journeys needs a low limit. Tests only.
   */
  connectionsScale: z.number().positive().finite().default(1),
});

export type RateLimitersOptions = z.input<typeof optionsSchema>;

/** Each limit of platform/limits.ts once: per window of `windowSeconds`. */
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
      scale: options.scale * options.connectionsScale,
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

/**
 * The shared store's last answer for each identifier this process asked about, per limiter: how
 * many requests were left and when the window frees up. Bounded: cleared when it grows past
 * ALONGSIDE_MEMORY_MAX identifiers (it only decides ordering, never an answer).
 */
const lastAnswers = new WeakMap<RateLimiter, Map<string, { remaining: number; reset: number }>>();
const ALONGSIDE_MEMORY_MAX = 10_000;
/** Below this many requests left (as last seen), the limit is asked first and the work waits for it. */
const ALONGSIDE_MIN_REMAINING = 2;

/**
 * Counts one request for `identifier` and runs `work` for it: both at once while the identifier
 * had room at its last answer (a read then pays one round trip to the shared store instead of two
 * in a row), one after the other once it nears its limit, so that a refused request runs no work
 * (a flood costs the database nothing). The decision is always the shared store's. Resolves with
 * the RateLimit headers and the work's value; throws RATE_LIMITED as enforceRateLimit does, or
 * the work's error with the RateLimit headers in `headers`.
 */
export async function limitAlongside<T>(
  limiter: RateLimiter,
  identifier: string,
  work: () => Promise<T>,
): Promise<{ headers: Record<string, string>; value: T }> {
  let answers = lastAnswers.get(limiter);
  if (!answers) {
    answers = new Map();
    lastAnswers.set(limiter, answers);
  }
  const last = answers.get(identifier);
  const alongside = last === undefined || last.remaining >= ALONGSIDE_MIN_REMAINING || Date.now() >= last.reset;
  const started = alongside ? settle(work()) : undefined;
  const result = await limiter.limit(identifier);
  if (answers.size >= ALONGSIDE_MEMORY_MAX) answers.clear();
  answers.set(identifier, { remaining: result.remaining, reset: result.reset });
  const now = Date.now();
  const headers = rateLimitHeaders(limiter.policy, result, now);
  if (!result.success) {
    throw new AppError("RATE_LIMITED", {
      headers: { ...headers, "retry-after": String(retryAfterSeconds(limiter.policy, result, now)) },
    });
  }
  const outcome = await (started ?? settle(work()));
  if (outcome.ok) return { headers, value: outcome.value };
  throw new LimitedWorkError(outcome.error, headers);
}

/** The error of `limitAlongside`'s work, with the RateLimit headers its answer must carry. */
export class LimitedWorkError extends Error {
  constructor(
    readonly cause: unknown,
    readonly headers: Record<string, string>,
  ) {
    super("the work of a limited request failed");
  }
}

/** A promise that never rejects (a work started alongside a refused request must not go unhandled). */
function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}
