// The in-process rate-limit store against the real thing: @upstash/ratelimit's sliding window and
// slots.ts's scripts, run on ioredis-mock (their Lua, without a server) and, with REDIS_URL, on a
// real Redis, give exactly the same answers (decision, limit, remaining, reset; the Retry-After and
// RateLimit headers follow from those, and the budget left as read without counting) for random
// sequences of requests over time. And the store forgets expired keys, on its own timer, so it
// does not grow with every identifier ever seen.
import { randomBytes } from "node:crypto";
import { COMMAND_SENDERS, closeRealRedis } from "@parley/testing/command-senders";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { memoryBackend } from "../src/platform/ratelimit/backends.ts";
import { MemoryRateLimitStore } from "../src/platform/ratelimit/memory.ts";
import { createRedisRequester } from "../src/platform/ratelimit/requester.ts";
import { createSlotLimiter } from "../src/platform/ratelimit/slots.ts";
import type { RateLimitPolicy, RateLimitResult } from "../src/platform/ratelimit/types.ts";

const unique = () => randomBytes(6).toString("hex");
const START = Date.UTC(2030, 0, 1, 0, 0, 0);

afterAll(closeRealRedis);
afterEach(() => {
  vi.useRealTimers();
});

const references = COMMAND_SENDERS;

/** A step of a run: wait `advanceMs`, then one request of identifier `who`. */
const steps = fc.array(
  fc.record({
    advanceMs: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: 0, max: 4_000 }),
      fc.integer({ min: 0, max: 25_000 }),
    ),
    who: fc.constantFrom("a", "b", "c"),
  }),
  { minLength: 1, maxLength: 120 },
);

describe.each(references)("the in-process store answers as @upstash/ratelimit on $name", ({ missing, sender }) => {
  const test = it.skipIf(missing);

  test("sliding window: the same decision, limit, remaining and reset for every request", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const redis = new Redis(createRedisRequester(sender()));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        // At least 2 s: no counter expires in Redis' own (real) time during a run.
        fc.constantFrom(2, 10, 60),
        fc.integer({ min: 0, max: 59_999 }),
        steps,
        async (limit, windowSeconds, offsetMs, run) => {
          const policy: RateLimitPolicy = { name: "equivalence", limit, windowSeconds };
          const prefix = `parley:test:${unique()}`;
          const upstash = new Ratelimit({
            redis,
            limiter: Ratelimit.slidingWindow(limit, `${windowSeconds} s`),
            prefix,
            ephemeralCache: false,
            enableTelemetry: false,
            timeout: 0,
          });
          const memory = memoryBackend(new MemoryRateLimitStore()).limiter(prefix, policy);
          let now = START + offsetMs;
          for (const { advanceMs, who } of run) {
            now += advanceMs;
            vi.setSystemTime(now);
            const { success, limit: reportedLimit, remaining, reset } = await upstash.limit(who);
            const expected: RateLimitResult = { success, limit: reportedLimit, remaining, reset };
            expect(await memory.limit(who), `${who} at +${now - START} ms`).toEqual(expected);
            // What is left, read without counting (the sign-in throttle's check), for every identifier.
            for (const anyone of ["a", "b", "c"]) {
              const left = await upstash.getRemaining(anyone);
              const remainingThere = { remaining: left.remaining, reset: left.reset };
              expect(await memory.remaining(anyone), `${anyone} left at +${now - START} ms`).toEqual(remainingThere);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test("connection slots: the same answers as slots.ts's scripts", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const redis = new Redis(createRedisRequester(sender()));
    const operations = fc.array(
      fc.record({
        // Exact multiples of the TTL land on a slot's expiry to the millisecond.
        advanceMs: fc.oneof(fc.constant(0), fc.constantFrom(15_000, 30_000, 60_000), fc.integer({ min: 0, max: 42_000 })),
        kind: fc.constantFrom("acquire", "acquire", "renew", "release"),
        who: fc.constantFrom("ip-1", "ip-2"),
        holder: fc.constantFrom("h1", "h2", "h3", "h4"),
        limit: fc.integer({ min: 1, max: 3 }),
      }),
      { minLength: 1, maxLength: 80 },
    );
    await fc.assert(
      fc.asyncProperty(operations, async (run) => {
        // Long enough that no key expires in Redis' own (real) time during a run.
        const options = { prefix: `parley:test:${unique()}`, ttlMs: 60_000, scale: 1 };
        const shared = createSlotLimiter(redis, options);
        const memory = memoryBackend(new MemoryRateLimitStore()).slots(options);
        let now = START;
        for (const { advanceMs, kind, who, holder, limit } of run) {
          now += advanceMs;
          vi.setSystemTime(now);
          if (kind === "acquire") expect(await memory.acquire(who, holder, limit)).toBe(await shared.acquire(who, holder, limit));
          else if (kind === "renew") await Promise.all([memory.renew(who, holder), shared.renew(who, holder)]);
          else await Promise.all([memory.release(who, holder), shared.release(who, holder)]);
        }
        // What is still held agrees too: every holder of each identifier asks once more.
        for (const who of ["ip-1", "ip-2"]) {
          for (const holder of ["h1", "h2", "h3", "h4", "h5"]) {
            expect(await memory.acquire(who, holder, 2)).toBe(await shared.acquire(who, holder, 2));
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("expired keys are swept", () => {
  const policy: RateLimitPolicy = { name: "sweep", limit: 5, windowSeconds: 60 };

  it("a window's counter lives two windows and a second, then the sweep drops it", () => {
    const store = new MemoryRateLimitStore();
    const at = START + 1_000;
    for (let visitor = 0; visitor < 1_000; visitor++) store.slidingWindow(`parley:rl:sweep:visitor-${visitor}`, policy, at);
    expect(store.keyCount()).toBe(1_000);
    // Still the previous window's count for the whole next window: kept.
    store.sweep(at + 2 * 60_000 + 1_000);
    expect(store.keyCount()).toBe(1_000);
    store.sweep(at + 2 * 60_000 + 1_001);
    expect(store.keyCount()).toBe(0);
    store.clear();
  });

  it("a counter still in use is kept while older ones go", () => {
    const store = new MemoryRateLimitStore();
    store.slidingWindow("k:old", policy, START);
    store.slidingWindow("k:busy", policy, START);
    // Three minutes on, "busy" has a fresh window; "old" has expired.
    store.slidingWindow("k:busy", policy, START + 180_000);
    store.sweep(START + 180_000);
    expect(store.keyCount()).toBe(1);
    expect(store.slidingWindow("k:busy", policy, START + 180_000)).toMatchObject({ success: true, remaining: 3 });
    store.clear();
  });

  it("a slot set goes once its last slot has expired", () => {
    const store = new MemoryRateLimitStore();
    expect(store.acquireSlot("slots:ip", "h1", 2, 1_000, START)).toBe(true);
    store.sweep(START + 1_000);
    expect(store.keyCount()).toBe(1);
    store.sweep(START + 1_001);
    expect(store.keyCount()).toBe(0);
    // Released slots leave nothing behind either.
    store.acquireSlot("slots:ip", "h1", 2, 1_000, START);
    store.releaseSlot("slots:ip", "h1");
    expect(store.keyCount()).toBe(0);
  });

  it("runs the sweep on its own once a minute while keys are held, and stops when none are", () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(START);
    const store = new MemoryRateLimitStore();
    const limiter = memoryBackend(store).limiter("parley:rl:timer", policy);
    for (let visitor = 0; visitor < 100; visitor++) void limiter.limit(`visitor-${visitor}`);
    expect(store.keyCount()).toBe(100);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(2 * 60_000);
    expect(store.keyCount()).toBe(100);
    vi.advanceTimersByTime(60_000);
    expect(store.keyCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
