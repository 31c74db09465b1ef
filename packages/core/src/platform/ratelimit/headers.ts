// RateLimit response headers in the IETF draft form (draft-ietf-httpapi-ratelimit-headers, HTTP
// structured fields): the policy is a quoted name with q (quota) and w (window, seconds); the live
// state names the same policy with r (remaining) and t (seconds until the quota resets).
import type { RateLimiter, RateLimitResult } from "./types.ts";

/** Whole seconds from `now` until `reset` (both ms since the epoch), rounded up, never negative. */
export function secondsUntil(reset: number, now: number): number {
  return Math.max(0, Math.ceil((reset - now) / 1000));
}

/** `ratelimit-policy` and `ratelimit`, lower-case names as Parley's header records use them. */
export function rateLimitHeaders(policy: RateLimiter["policy"], result: RateLimitResult, now: number): Record<string, string> {
  return {
    "ratelimit-policy": `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    ratelimit: `"${policy.name}";r=${result.remaining};t=${secondsUntil(result.reset, now)}`,
  };
}

/**
 * Retry-After for a refused request: whole seconds to just after the library's reset (the end of
 * the current window), at least 1. Then a request passes again: refused requests are not counted,
 * so the window that ended holds at most `limit`, and from its first millisecond on it weighs
 * less than 1 in the sliding window (floor((1 - elapsed share) * limit) < limit). Never more than
 * the window.
 */
export function retryAfterSeconds(policy: RateLimiter["policy"], result: Pick<RateLimitResult, "reset">, now: number): number {
  return Math.min(policy.windowSeconds, Math.max(1, Math.floor((result.reset - now) / 1000) + 1));
}
