// The three places rate-limit counters can live: Upstash itself, a real Redis shared by every app
// instance (both through @upstash/ratelimit and slots.ts's scripts), or this process (memory.ts,
// the same algorithms on plain maps). Each backend makes the limiters the rest of Parley uses.
import { Ratelimit } from "@upstash/ratelimit";
import { Redis as UpstashRedis } from "@upstash/redis";
import IORedis from "ioredis";
import { describeError, logger } from "../logger.ts";
import { MemoryRateLimitStore } from "./memory.ts";
import { createRedisRequester, type SendCommand } from "./requester.ts";
import { createSlotLimiter, type SlotLimiterOptions } from "./slots.ts";
import type { RateLimiter, RateLimitPolicy, SlotLimiter } from "./types.ts";

export interface Backend {
  kind: "memory" | "redis" | "upstash";
  /** A sliding-window limiter of `policy`, its keys under `prefix`. */
  limiter(prefix: string, policy: RateLimitPolicy): RateLimiter;
  slots(options: SlotLimiterOptions): SlotLimiter;
  close(): Promise<void>;
}

/** A backend whose counters live in Redis, reached as an @upstash/redis client. */
export interface RedisBackend extends Backend {
  kind: "redis" | "upstash";
  redis: UpstashRedis;
}

function redisBacked(kind: RedisBackend["kind"], redis: UpstashRedis, close: () => Promise<void>): RedisBackend {
  return {
    kind,
    redis,
    limiter: (prefix, policy) => upstashLimiter(redis, prefix, policy),
    slots: (options) => createSlotLimiter(redis, options),
    close,
  };
}

function upstashLimiter(redis: UpstashRedis, prefix: string, policy: RateLimitPolicy): RateLimiter {
  const ratelimit = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(policy.limit, `${policy.windowSeconds} s`),
    prefix,
    analytics: false,
    enableTelemetry: false,
    // The ephemeral cache remembers blocked ids in this instance until the end of the current
    // fixed window, but the sliding window often frees a slot earlier, and other instances (or a
    // reset) would not see it: every answer comes from the shared store instead.
    ephemeralCache: false,
    // No fail-open: on a timeout the library would allow the request with limit 0, which would
    // also switch off the brute-force guards. Backend errors surface (ioredis fails fast).
    timeout: 0,
  });
  return {
    policy,
    async limit(identifier) {
      const { success, limit, remaining, reset } = await ratelimit.limit(identifier);
      return { success, limit, remaining, reset };
    },
    async remaining(identifier) {
      const { remaining, reset } = await ratelimit.getRemaining(identifier);
      return { remaining, reset };
    },
  };
}

/** Upstash's own REST API: the plain client, telemetry off. Nothing is sent until a limit() call. */
export function upstashBackend(config: { url: string; token: string }): RedisBackend {
  const redis = new UpstashRedis({ url: config.url, token: config.token, enableTelemetry: false });
  return redisBacked("upstash", redis, async () => {});
}

/**
 * A real Redis shared by every app instance. Commands fail fast when Redis is unreachable (one
 * retry, then an error the API turns into a 500) rather than queueing for ever: a limiter that
 * silently stops limiting would also stop guarding bearer keys and sign-ins.
 */
export function redisBackend(redisUrl: string): RedisBackend {
  const client = new IORedis(redisUrl, {
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    // Concurrent requests' commands leave in one write.
    enableAutoPipelining: true,
    connectionName: "parley-ratelimit",
  });
  // Without a listener ioredis prints every reconnect failure.
  client.on("error", (error: Error) => logger.warn("rate-limit redis error", { error: describeError(error) }));
  const send: SendCommand = (command, args) => client.call(command, ...args);
  return redisBacked("redis", new UpstashRedis(createRedisRequester(send)), async () => {
    if (client.status === "end") return;
    await client.quit().catch(() => client.disconnect());
  });
}

/**
 * One store per process (kept on globalThis so that two copies of this module, as bundlers
 * sometimes make, still share it): several limiter sets in one process then share counts exactly
 * as several app instances do on one Redis.
 */
export function processMemoryStore(): MemoryRateLimitStore {
  const key = Symbol.for("parley.ratelimit.memoryStore");
  const holder = globalThis as typeof globalThis & { [key]?: MemoryRateLimitStore };
  holder[key] ??= new MemoryRateLimitStore();
  return holder[key];
}

/** Counters in this process: the embedded default, the same decisions as on Redis. */
export function memoryBackend(store: MemoryRateLimitStore = processMemoryStore()): Backend {
  return {
    kind: "memory",
    limiter: (prefix, policy) => ({
      policy,
      // Keyed as @upstash/ratelimit keys it: the limiter's prefix, then the identifier.
      limit: async (identifier) => store.slidingWindow(`${prefix}:${identifier}`, policy, Date.now()),
      remaining: async (identifier) => store.slidingWindowRemaining(`${prefix}:${identifier}`, policy, Date.now()),
    }),
    slots: ({ prefix, ttlMs, scale }) => ({
      async acquire(identifier, holder, limit) {
        return store.acquireSlot(`${prefix}:${identifier}`, holder, Math.max(1, Math.round(limit * scale)), ttlMs, Date.now());
      },
      async renew(identifier, holder) {
        store.renewSlot(`${prefix}:${identifier}`, holder, ttlMs, Date.now());
      },
      async release(identifier, holder) {
        store.releaseSlot(`${prefix}:${identifier}`, holder);
      },
    }),
    // The store is the process's; closing one set of limiters leaves it to the others.
    close: async () => {},
  };
}
