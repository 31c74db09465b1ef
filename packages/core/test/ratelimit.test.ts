// The shared limiter on its real backends: this process (the in-process store) and, when
// REDIS_URL is set, a real Redis. Only Date is faked, so every run sees the
// same place in the window and the exact header values can be asserted.
import { randomBytes } from "node:crypto";
import IORedis from "ioredis";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../src/platform/errors.ts";
import {
  FAILED_KEY_ATTEMPTS_PER_MINUTE,
  FAILED_SIGN_INS_PER_IP_PER_WINDOW,
  FAILED_SIGN_INS_PER_WINDOW,
  HELP_REQUESTS_PER_MINUTE,
  MESSAGES_PER_MINUTE,
} from "../src/platform/limits.ts";
import { upstashBackend } from "../src/platform/ratelimit/backends.ts";
import {
  createRateLimiters,
  enforceRateLimit,
  type RateLimiter,
  type RateLimiters,
  type RateLimitersOptions,
} from "../src/platform/ratelimit/index.ts";

const redisUrl = process.env.REDIS_URL || undefined;

/** One second into a minute (and into a 15-minute window): 59 s (899 s) to the reset. */
const WINDOW_START_PLUS_1S = Date.UTC(2030, 0, 1, 0, 0, 1);

const open: RateLimiters[] = [];
function limiters(options: RateLimitersOptions): RateLimiters {
  const created = createRateLimiters(options);
  open.push(created);
  return created;
}
const uniquePrefix = () => `test:${randomBytes(6).toString("hex")}`;

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((created) => created.close()));
});

function freezeClock(at = WINDOW_START_PLUS_1S): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
}

/** The AppError enforceRateLimit throws, or a failure when it resolves. */
async function refusal(limiter: RateLimiter, identifier: string): Promise<AppError> {
  const error = await enforceRateLimit(limiter, identifier).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const backends = [
  { name: "in-process", redisUrl: undefined, kind: "memory", missing: false },
  { name: "Redis (REDIS_URL)", redisUrl, kind: "redis", missing: !redisUrl },
] as const;

describe.each(backends)("rate limits on the $name backend", ({ redisUrl: url, kind, missing }) => {
  // Without REDIS_URL the Redis half is skipped, by name, rather than passing vacuously.
  const test = it.skipIf(missing);
  const make = (options: Omit<RateLimitersOptions, "redisUrl"> = {}) => limiters({ redisUrl: url, prefix: uniquePrefix(), ...options });

  test("reports its backend", () => {
    expect(make().backend).toBe(kind);
  });

  test("allows 30 messages a minute, counting down, and refuses the 31st with 429 and Retry-After", async () => {
    freezeClock();
    const { messages } = make();
    for (let sent = 1; sent <= MESSAGES_PER_MINUTE; sent++) {
      const headers = await enforceRateLimit(messages, "agent-1");
      expect(headers).toEqual({
        "ratelimit-policy": `"messages";q=30;w=60`,
        ratelimit: `"messages";r=${MESSAGES_PER_MINUTE - sent};t=59`,
      });
    }
    const error = await refusal(messages, "agent-1");
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.status).toBe(429);
    expect(error.message).toBe("Rate limit exceeded");
    expect(error.toBody()).toEqual({ error: "Rate limit exceeded" });
    expect(error.headers).toEqual({
      "ratelimit-policy": `"messages";q=30;w=60`,
      ratelimit: `"messages";r=0;t=59`,
      "retry-after": "60",
    });
    // Refused requests are not counted, and stay refused for the rest of the window.
    expect((await refusal(messages, "agent-1")).headers["retry-after"]).toBe("60");
  });

  test("lets a request through again once Retry-After has passed, not a second before", async () => {
    freezeClock();
    const { messages } = make();
    for (let sent = 0; sent < MESSAGES_PER_MINUTE; sent++) await enforceRateLimit(messages, "agent-1");
    const retryAfter = Number((await refusal(messages, "agent-1")).headers["retry-after"]);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    vi.setSystemTime(WINDOW_START_PLUS_1S + (retryAfter - 1) * 1000);
    await refusal(messages, "agent-1");
    vi.setSystemTime(WINDOW_START_PLUS_1S + retryAfter * 1000);
    // The sliding window still weighs the last minute: one passes, with nothing left.
    const headers = await enforceRateLimit(messages, "agent-1");
    expect(headers.ratelimit).toMatch(/^"messages";r=0;t=\d+$/);
  });

  test("grants slots as the sliding window frees them, with no blocked-id cache in between", async () => {
    freezeClock();
    const { messages } = make();
    for (let sent = 0; sent < MESSAGES_PER_MINUTE; sent++) await enforceRateLimit(messages, "agent-1");
    // Next minute, 1 s in: last minute still weighs floor(59/60 * 30) = 29, so one passes.
    vi.setSystemTime(WINDOW_START_PLUS_1S + 60_000);
    await enforceRateLimit(messages, "agent-1");
    await refusal(messages, "agent-1");
    // Half-way through, it weighs 15: 15 + 1 used, 14 more pass (a cached "blocked" would refuse).
    vi.setSystemTime(WINDOW_START_PLUS_1S + 60_000 + 29_000);
    for (let sent = 0; sent < 14; sent++) await enforceRateLimit(messages, "agent-1");
    await refusal(messages, "agent-1");
  });

  test("counts each identifier separately", async () => {
    freezeClock();
    const { messages, help } = make();
    for (let sent = 0; sent < MESSAGES_PER_MINUTE; sent++) await enforceRateLimit(messages, "agent-a");
    await refusal(messages, "agent-a");
    expect((await enforceRateLimit(messages, "agent-b")).ratelimit).toBe(`"messages";r=29;t=59`);
    // The same identifier on another limiter is another count too.
    expect((await enforceRateLimit(help, "agent-a")).ratelimit).toBe(`"help";r=29;t=59`);
  });

  test("help, failed-key and sign-in (per email and IP, per IP) limits come from limits.ts with their own windows", async () => {
    freezeClock();
    const { help, failedKeys, signIn, signInIp } = make();
    const cases = [
      { limiter: help, limit: HELP_REQUESTS_PER_MINUTE, policy: `"help";q=30;w=60`, t: 59 },
      { limiter: failedKeys, limit: FAILED_KEY_ATTEMPTS_PER_MINUTE, policy: `"failed-keys";q=10;w=60`, t: 59 },
      { limiter: signIn, limit: FAILED_SIGN_INS_PER_WINDOW, policy: `"sign-in";q=5;w=900`, t: 899 },
      { limiter: signInIp, limit: FAILED_SIGN_INS_PER_IP_PER_WINDOW, policy: `"sign-in-ip";q=20;w=900`, t: 899 },
    ];
    for (const { limiter, limit, policy, t } of cases) {
      expect(limiter.policy.limit).toBe(limit);
      for (let sent = 1; sent <= limit; sent++) {
        expect(await enforceRateLimit(limiter, "203.0.113.7")).toEqual({
          "ratelimit-policy": policy,
          ratelimit: `"${limiter.policy.name}";r=${limit - sent};t=${t}`,
        });
      }
      expect((await refusal(limiter, "203.0.113.7")).headers["retry-after"]).toBe(String(t + 1));
    }
  });

  test("two limiter sets with the same prefix share one count (15 + 16: the 31st fails)", async () => {
    freezeClock();
    const prefix = uniquePrefix();
    const first = make({ prefix });
    const second = make({ prefix });
    for (let sent = 0; sent < 15; sent++) await enforceRateLimit(first.messages, "agent-1");
    for (let sent = 0; sent < 15; sent++) await enforceRateLimit(second.messages, "agent-1");
    const error = await refusal(second.messages, "agent-1");
    expect(error.status).toBe(429);
    expect(error.headers["retry-after"]).toBe("60");
    // And the first set sees the same state.
    await refusal(first.messages, "agent-1");
    // Another prefix is another count.
    expect((await enforceRateLimit(make().messages, "agent-1")).ratelimit).toBe(`"messages";r=29;t=59`);
  });

  test("scale multiplies every limit: scale 2 allows 60 messages", async () => {
    freezeClock();
    const { messages, signIn } = make({ scale: 2 });
    expect(signIn.policy.limit).toBe(2 * FAILED_SIGN_INS_PER_WINDOW);
    for (let sent = 1; sent <= 60; sent++) {
      expect((await enforceRateLimit(messages, "agent-1"))["ratelimit-policy"]).toBe(`"messages";q=60;w=60`);
    }
    expect((await refusal(messages, "agent-1")).headers.ratelimit).toBe(`"messages";r=0;t=59`);
  });

  test("on the real clock, t and Retry-After stay within the window", async () => {
    const { failedKeys } = make();
    for (let sent = 0; sent < FAILED_KEY_ATTEMPTS_PER_MINUTE; sent++) {
      const [, remaining, t] = /^"failed-keys";r=(\d+);t=(\d+)$/.exec((await enforceRateLimit(failedKeys, "ip")).ratelimit ?? "") ?? [];
      expect(Number(remaining)).toBeLessThan(FAILED_KEY_ATTEMPTS_PER_MINUTE);
      expect(Number(t)).toBeGreaterThanOrEqual(0);
      expect(Number(t)).toBeLessThanOrEqual(60);
    }
    // Ten more: at least one is refused even if a window boundary passed meanwhile.
    const outcomes = await Promise.allSettled(
      Array.from({ length: FAILED_KEY_ATTEMPTS_PER_MINUTE }, () => enforceRateLimit(failedKeys, "ip")),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) {
      const retryAfter = Number((outcome.reason as AppError).headers["retry-after"]);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });
});

describe("a Redis that loses its scripts (restart, SCRIPT FLUSH)", () => {
  it.skipIf(!redisUrl)("keeps counting where it was: the limiter sends its script again", async () => {
    freezeClock();
    const { messages } = limiters({ redisUrl, prefix: uniquePrefix() });
    for (let sent = 0; sent < 10; sent++) await enforceRateLimit(messages, "agent-1");
    const admin = new IORedis(redisUrl!);
    try {
      await admin.script("FLUSH");
    } finally {
      admin.disconnect();
    }
    expect((await enforceRateLimit(messages, "agent-1")).ratelimit).toBe(`"messages";r=${MESSAGES_PER_MINUTE - 11};t=59`);
  });
});

describe("backend choice and options", () => {
  it("uses the process when neither Upstash nor REDIS_URL is given", () => {
    expect(limiters({}).backend).toBe("memory");
  });

  it("builds the Upstash backend without touching the network, telemetry off, and prefers it over REDIS_URL", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const upstash = { url: "https://parley-test.upstash.invalid", token: "test-token" };
      const created = limiters({ upstash, redisUrl: "redis://127.0.0.1:1", prefix: uniquePrefix() });
      expect(created.backend).toBe("upstash");
      expect(created.messages.policy).toEqual({ name: "messages", limit: MESSAGES_PER_MINUTE, windowSeconds: 60 });
      expect(created.signIn.policy).toEqual({ name: "sign-in", limit: FAILED_SIGN_INS_PER_WINDOW, windowSeconds: 900 });
      const backend = upstashBackend(upstash);
      expect((backend.redis as unknown as { enableTelemetry: boolean }).enableTelemetry).toBe(false);
      await created.close();
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it("rejects a scale that is not a positive number and a bad Upstash URL", () => {
    expect(() => createRateLimiters({ scale: 0 })).toThrow();
    expect(() => createRateLimiters({ scale: -1 })).toThrow();
    expect(() => createRateLimiters({ upstash: { url: "not a url", token: "t" } })).toThrow();
  });
});
