// The rate-limit pieces the widget's per-agent limits stand on, on both real backends (this
// process's store and, with REDIS_URL, Redis): limiters of configured policies (one per distinct
// limit, counting the same window when the limit changes) and the concurrent connection slots,
// shared by two limiter sets as by two app instances, freed on release or when they expire.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WIDGET_CONNECTION_SLOT_TTL_MS } from "../src/platform/limits.ts";
import { createRateLimiters, enforceRateLimit, type RateLimiters } from "../src/platform/ratelimit/index.ts";

const redisUrl = process.env.REDIS_URL || undefined;
const open: RateLimiters[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((created) => created.close()));
});

/** `count` limiter sets on one store and prefix: what `count` app instances configured alike share. */
function instances(url: string | undefined, count: number, options: { scale?: number; connectionsScale?: number } = {}): RateLimiters[] {
  const prefix = `test:${randomBytes(6).toString("hex")}`;
  const created = Array.from({ length: count }, () => createRateLimiters({ redisUrl: url, prefix, ...options }));
  open.push(...created);
  return created;
}

function freezeClock(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
}

const ONE_SECOND_INTO_A_MINUTE = Date.UTC(2030, 0, 1, 0, 0, 1);

const backends = [
  { name: "in-process", url: undefined, missing: false },
  { name: "Redis (REDIS_URL)", url: redisUrl, missing: !redisUrl },
] as const;

describe.each(backends)("on the $name backend", ({ url, missing }) => {
  const test = it.skipIf(missing);

  test("a configured policy's limiter is made once per distinct limit, and a changed limit counts the same window", async () => {
    freezeClock(ONE_SECOND_INTO_A_MINUTE);
    const [limiters] = instances(url, 1) as [RateLimiters];
    const policy = { name: "widget-messages-ip", limit: 3, windowSeconds: 60 };
    expect(limiters.configured(policy)).toBe(limiters.configured({ ...policy }));
    for (let sent = 0; sent < 3; sent++) await enforceRateLimit(limiters.configured(policy), "agent:203.0.113.1");
    await expect(enforceRateLimit(limiters.configured(policy), "agent:203.0.113.1")).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: { "retry-after": "60" },
    });
    // The admin raises the limit to 5: the 3 already sent still count.
    const raised = limiters.configured({ ...policy, limit: 5 });
    expect(raised).not.toBe(limiters.configured(policy));
    await enforceRateLimit(raised, "agent:203.0.113.1");
    await enforceRateLimit(raised, "agent:203.0.113.1");
    await expect(enforceRateLimit(raised, "agent:203.0.113.1")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // Another identifier has its own count.
    await enforceRateLimit(raised, "agent:203.0.113.2");
  });

  test("RATE_LIMIT_SCALE multiplies configured limits and connection slots too", async () => {
    freezeClock(ONE_SECOND_INTO_A_MINUTE);
    const [limiters] = instances(url, 1, { scale: 2 }) as [RateLimiters];
    const limiter = limiters.configured({ name: "widget-messages-ip", limit: 1, windowSeconds: 60 });
    expect(limiter.policy.limit).toBe(2);
    await enforceRateLimit(limiter, "x");
    await enforceRateLimit(limiter, "x");
    await expect(enforceRateLimit(limiter, "x")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(await limiters.connections.acquire("agent:ip", "c1", 1)).toBe(true);
    expect(await limiters.connections.acquire("agent:ip", "c2", 1)).toBe(true);
    expect(await limiters.connections.acquire("agent:ip", "c3", 1)).toBe(false);
  });

  test("WIDGET_CONNECTIONS_SCALE multiplies the connection slots only (down as well as up)", async () => {
    freezeClock(ONE_SECOND_INTO_A_MINUTE);
    const [raised] = instances(url, 1, { connectionsScale: 50 }) as [RateLimiters];
    const limiter = raised.configured({ name: "widget-messages-ip", limit: 1, windowSeconds: 60 });
    expect(limiter.policy.limit).toBe(1);
    for (let holder = 0; holder < 50; holder += 1) expect(await raised.connections.acquire("agent:ip", `c${holder}`, 1)).toBe(true);
    expect(await raised.connections.acquire("agent:ip", "c50", 1)).toBe(false);

    // 0.1 of the default 20: two connections (and never fewer than one).
    const [lowered] = instances(url, 1, { connectionsScale: 0.1 }) as [RateLimiters];
    expect(await lowered.connections.acquire("agent:ip", "c1", 20)).toBe(true);
    expect(await lowered.connections.acquire("agent:ip", "c2", 20)).toBe(true);
    expect(await lowered.connections.acquire("agent:ip", "c3", 20)).toBe(false);
    expect(await lowered.connections.acquire("agent:other-ip", "c1", 1)).toBe(true);
  });

  test("connection slots are shared by two instances and freed on release", async () => {
    const [a, b] = instances(url, 2) as [RateLimiters, RateLimiters];
    expect(await a.connections.acquire("agent:203.0.113.1", "c1", 2)).toBe(true);
    expect(await b.connections.acquire("agent:203.0.113.1", "c2", 2)).toBe(true);
    expect(await a.connections.acquire("agent:203.0.113.1", "c3", 2)).toBe(false);
    expect(await b.connections.acquire("agent:203.0.113.1", "c3", 2)).toBe(false);
    // A holder asking again keeps its one slot.
    expect(await a.connections.acquire("agent:203.0.113.1", "c1", 2)).toBe(true);
    // Another IP, or the same IP for another agent, is counted apart.
    expect(await b.connections.acquire("agent:203.0.113.2", "c4", 2)).toBe(true);
    expect(await b.connections.acquire("other:203.0.113.1", "c5", 2)).toBe(true);

    await a.connections.release("agent:203.0.113.1", "c2");
    expect(await b.connections.acquire("agent:203.0.113.1", "c3", 2)).toBe(true);
    expect(await b.connections.acquire("agent:203.0.113.1", "c6", 2)).toBe(false);
    // A lower limit applies at once to new connections.
    await a.connections.release("agent:203.0.113.1", "c3");
    expect(await a.connections.acquire("agent:203.0.113.1", "c7", 1)).toBe(false);
  });

  test("a slot that is not renewed expires (an instance that died), a renewed one lives on", async () => {
    const start = Date.now();
    freezeClock(start);
    const [a, b] = instances(url, 2) as [RateLimiters, RateLimiters];
    expect(await a.connections.acquire("agent:ip", "crashed", 2)).toBe(true);
    expect(await a.connections.acquire("agent:ip", "alive", 2)).toBe(true);
    expect(await b.connections.acquire("agent:ip", "new", 2)).toBe(false);

    vi.setSystemTime(start + WIDGET_CONNECTION_SLOT_TTL_MS / 2);
    await a.connections.renew("agent:ip", "alive");
    vi.setSystemTime(start + WIDGET_CONNECTION_SLOT_TTL_MS + 1);
    expect(await b.connections.acquire("agent:ip", "new", 2)).toBe(true);
    expect(await b.connections.acquire("agent:ip", "another", 2)).toBe(false);
    // Renewing a slot that has expired does not bring it back.
    await a.connections.renew("agent:ip", "crashed");
    expect(await b.connections.acquire("agent:ip", "another", 2)).toBe(false);
  });
});
