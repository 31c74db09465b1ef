// Concurrent slots in the shared rate-limit store (Upstash or Redis; memory.ts does the same in
// this process), for limits on things held rather than done: widget connections per IP. One
// sorted set per identifier, a member per holder, scored with the time its slot expires; each
// script first drops the expired members, so an instance that died without releasing its slots
// loses them within the TTL.
import type { Redis } from "@upstash/redis";
import type { SlotLimiter } from "./types.ts";

// KEYS[1] the identifier's set; ARGV: now (ms), ttl (ms), limit, holder.
const ACQUIRE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", key, "-inf", now)
if not redis.call("ZSCORE", key, ARGV[4]) and redis.call("ZCARD", key) >= tonumber(ARGV[3]) then
  return 0
end
redis.call("ZADD", key, now + ttl, ARGV[4])
redis.call("PEXPIRE", key, ttl)
return 1
`;

// KEYS[1] the identifier's set; ARGV: now (ms), ttl (ms), holder. Renews only a slot still held.
const RENEW = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", key, "-inf", now)
if redis.call("ZSCORE", key, ARGV[3]) then
  redis.call("ZADD", key, now + ttl, ARGV[3])
  redis.call("PEXPIRE", key, ttl)
  return 1
end
return 0
`;

const RELEASE = `return redis.call("ZREM", KEYS[1], ARGV[1])`;

export interface SlotLimiterOptions {
  /** Key prefix; each identifier's set is `{prefix}:{identifier}`. */
  prefix: string;
  /** How long a slot lives unless renewed. */
  ttlMs: number;
  /** Multiplies every limit (RATE_LIMIT_SCALE, times WIDGET_CONNECTIONS_SCALE for the widget's connections). */
  scale: number;
}

export function createSlotLimiter(redis: Redis, options: SlotLimiterOptions): SlotLimiter {
  const acquire = redis.createScript<number>(ACQUIRE);
  const renew = redis.createScript<number>(RENEW);
  const release = redis.createScript<number>(RELEASE);
  const key = (identifier: string) => `${options.prefix}:${identifier}`;
  const ttl = String(options.ttlMs);
  return {
    async acquire(identifier, holder, limit) {
      const scaled = Math.max(1, Math.round(limit * options.scale));
      return Number(await acquire.exec([key(identifier)], [String(Date.now()), ttl, String(scaled), holder])) === 1;
    },
    async renew(identifier, holder) {
      await renew.exec([key(identifier)], [String(Date.now()), ttl, holder]);
    },
    async release(identifier, holder) {
      await release.exec([key(identifier)], [holder]);
    },
  };
}
