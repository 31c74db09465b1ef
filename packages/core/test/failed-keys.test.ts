// The failed-key guard of the messages API across app instances: two limiter sets on one store
// (a real Redis with REDIS_URL, else this process's store), as two instances behind a balancer
// have. Failures are counted per client IP in that shared store; a blocked IP's wrong keys get 429
// on every instance, and a valid key still passes on every instance.
import { randomBytes } from "node:crypto";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import type { TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext, type TestAgent } from "@parley/testing/messaging";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { authenticateAgent } from "../src/agents/keys/message-auth.ts";
import { AppError } from "../src/platform/errors.ts";
import { FAILED_KEY_ATTEMPTS_PER_MINUTE } from "../src/platform/limits.ts";
import { createRateLimiters, type RateLimiters } from "../src/platform/ratelimit/index.ts";

let ctx: TestContext;
let instanceA: RateLimiters;
let instanceB: RateLimiters;

beforeAll(async () => {
  ctx = await createMessagingContext();
  // One prefix, two limiter sets: what two app processes configured alike share.
  const shared = { redisUrl: process.env.REDIS_URL || undefined, prefix: `test:${randomBytes(6).toString("hex")}` };
  instanceA = createRateLimiters(shared);
  instanceB = createRateLimiters(shared);
});

afterAll(async () => {
  await instanceA?.close();
  await instanceB?.close();
  await ctx?.close();
});

let ipCounter = 0;
function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

/** The AppError that authenticating this key from this IP on this instance throws, or "passed". */
async function outcome(limiters: RateLimiters, agent: TestAgent, key: string, ip: string): Promise<string> {
  try {
    const authenticated = await authenticateAgent(ctx.db, limiters, { agentId: agent.id, token: key, clientIp: ip });
    expect(authenticated.id).toBe(agent.id);
    return "passed";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.code;
  }
}

describe("failed keys are counted per IP in the shared limiter", () => {
  beforeEach(() => freezeClockAtWindowStart(60));
  afterEach(() => vi.useRealTimers());

  it("blocks the IP's wrong keys on every instance, and lets a valid key through on every instance", async () => {
    const agent = await createAgentWithKey(ctx);
    const other = await createAgentWithKey(ctx);
    const ip = freshIp();

    // The failures are spread over both instances: the budget is one, shared.
    for (let i = 0; i < FAILED_KEY_ATTEMPTS_PER_MINUTE; i++) {
      const instance = i % 2 === 0 ? instanceA : instanceB;
      expect(await outcome(instance, agent, `pk_guess${i}`, ip), `failure ${i + 1}`).toBe("INVALID_BEARER_TOKEN");
    }
    for (const instance of [instanceA, instanceB]) {
      expect(await outcome(instance, agent, "pk_guess-more", ip)).toBe("RATE_LIMITED");
      // Another agent's valid key is just a wrong key here.
      expect(await outcome(instance, agent, other.key, ip)).toBe("RATE_LIMITED");
    }

    // The integration on the same host whose key is right keeps working, on both instances.
    expect(await outcome(instanceA, agent, agent.key, ip)).toBe("passed");
    expect(await outcome(instanceB, agent, agent.key, ip)).toBe("passed");
    expect(await outcome(instanceB, other, other.key, ip)).toBe("passed");
    // ...and valid keys do not end or extend the block.
    expect(await outcome(instanceA, agent, "pk_guess-again", ip)).toBe("RATE_LIMITED");

    // Other IPs are not affected.
    expect(await outcome(instanceB, agent, "pk_wrong", freshIp())).toBe("INVALID_BEARER_TOKEN");
  });

  it("refuses a blocked IP's wrong key with Retry-After and the failed-keys policy headers", async () => {
    const agent = await createAgentWithKey(ctx);
    const ip = freshIp();
    for (let i = 0; i < FAILED_KEY_ATTEMPTS_PER_MINUTE; i++) await outcome(instanceA, agent, `pk_guess${i}`, ip);
    const refused = await authenticateAgent(ctx.db, instanceB, { agentId: agent.id, token: "pk_x", clientIp: ip }).catch(
      (error: unknown) => error as AppError,
    );
    expect(refused).toBeInstanceOf(AppError);
    const headers = (refused as AppError).headers;
    expect(Number(headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(headers["ratelimit-policy"]).toBe(`"failed-keys";q=${FAILED_KEY_ATTEMPTS_PER_MINUTE};w=60`);
  });
});
