// The three places rate-limit counters can live, each as an @upstash/redis client for
// @upstash/ratelimit: Upstash itself, a real Redis (ioredis), or this process (ioredis-mock).
import { createHash } from "node:crypto";
import { Redis as UpstashRedis } from "@upstash/redis";
import IORedis from "ioredis";
import RedisMock from "ioredis-mock";
import { logger } from "../logger.ts";
import { createRedisRequester, type SendCommand } from "./requester.ts";

export interface Backend {
  kind: "memory" | "redis" | "upstash";
  redis: UpstashRedis;
  close(): Promise<void>;
}

/** Upstash's own REST API: the plain client, telemetry off. Nothing is sent until a limit() call. */
export function upstashBackend(config: { url: string; token: string }): Backend {
  const redis = new UpstashRedis({ url: config.url, token: config.token, enableTelemetry: false });
  return { kind: "upstash", redis, close: async () => {} };
}

/**
 * A real Redis shared by every app instance. Commands fail fast when Redis is unreachable (one
 * retry, then an error the API turns into a 500) rather than queueing for ever: a limiter that
 * silently stops limiting would also stop guarding bearer keys and sign-ins.
 */
export function redisBackend(redisUrl: string): Backend {
  const client = new IORedis(redisUrl, {
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    // Concurrent requests' commands leave in one write.
    enableAutoPipelining: true,
    connectionName: "parley-ratelimit",
  });
  // Without a listener ioredis prints every reconnect failure; the message names no credentials.
  client.on("error", (error: Error) => logger.warn("rate-limit redis error", { error: error.message }));
  const send: SendCommand = (command, args) => client.call(command, ...args);
  return {
    kind: "redis",
    redis: new UpstashRedis(createRedisRequester(send)),
    close: async () => {
      if (client.status === "end") return;
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** How often the in-process store drops expired rate-limit keys. */
const SWEEP_INTERVAL_MS = 60_000;

type MockClient = InstanceType<typeof RedisMock>;

/** Runs raw commands on ioredis-mock, replying as Redis would (see asRedisReply). */
export function mockCommandSender(mock: MockClient): SendCommand {
  const commands = mock as unknown as Record<string, unknown>;
  return async (command, args) => {
    const name = command.toLowerCase();
    // ioredis-mock has no SCRIPT command; the requester re-sends a script's text on NOSCRIPT, so
    // answering LOAD with the hash is enough.
    if (name === "script" && String(args[0]).toLowerCase() === "load") {
      return createHash("sha1").update(String(args[1])).digest("hex");
    }
    const method = commands[name];
    if (typeof method !== "function") throw new Error(`ERR unknown command '${command}'`);
    return asRedisReply(await method.apply(mock, args));
  };
}

export interface MemoryStore {
  send: SendCommand;
  /** Forgets expired keys now (the timer does it once a minute). */
  sweep(): Promise<void>;
  /** Keys the sweeper still watches (for tests). */
  trackedKeyCount(): number;
}

/**
 * ioredis-mock expires keys only when they are read again, and a rate-limit window key is never
 * read after its window has passed: left alone, every identifier would leave keys behind for good.
 * So the store remembers the keys scripts touch and, once a minute, reads them (EXISTS deletes an
 * expired key) and forgets those that are gone. The timer runs only while keys are tracked and
 * never keeps the process alive.
 */
export function createMemoryStore(mock: MockClient, sweepIntervalMs = SWEEP_INTERVAL_MS): MemoryStore {
  const sendToMock = mockCommandSender(mock);
  const tracked = new Set<string>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = async () => {
    for (const key of [...tracked]) {
      if ((await mock.exists(key)) === 0) tracked.delete(key);
    }
    if (tracked.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  const track = (args: (string | number)[]) => {
    const keyCount = Number(args[1]);
    for (const key of args.slice(2, 2 + keyCount)) tracked.add(String(key));
    if (!sweeper && tracked.size > 0) {
      sweeper = setInterval(() => void sweep(), sweepIntervalMs);
      sweeper.unref();
    }
  };

  return {
    send: (command, args) => {
      const name = command.toLowerCase();
      if (name === "eval" || name === "evalsha") track(args);
      return sendToMock(command, args);
    },
    sweep,
    trackedKeyCount: () => tracked.size,
  };
}

/**
 * One store per process (kept on globalThis so that two copies of this module, as bundlers
 * sometimes make, still share it): several RateLimiters in one process then share counts exactly
 * as several app instances do on one Redis. Its own host name keeps it apart from any other
 * ioredis-mock use in the process (ioredis-mock shares data per host:port).
 */
function processMemoryStore(): MemoryStore {
  const key = Symbol.for("parley.ratelimit.memoryStore");
  const holder = globalThis as typeof globalThis & { [key]?: MemoryStore };
  holder[key] ??= createMemoryStore(new RedisMock({ host: "parley-ratelimit.memory" }));
  return holder[key];
}

/** Redis turns Lua numbers into integers (truncating) and Lua false into nil; ioredis-mock does not. */
function asRedisReply(value: unknown): unknown {
  if (typeof value === "number") return Math.trunc(value);
  if (value === false) return null;
  if (Array.isArray(value)) return value.map(asRedisReply);
  return value;
}

/** Counters in this process: the embedded default, same algorithm and scripts as on Redis. */
export function memoryBackend(): Backend {
  const { send } = processMemoryStore();
  // The store is the process's; closing one set of limiters leaves it to the others.
  return { kind: "memory", redis: new UpstashRedis(createRedisRequester(send)), close: async () => {} };
}
