// limitAlongside: the help reads' order of the rate limit and the read. The shared store always
// decides; the read runs during the limit's round trip only while the client had room at its last
// answer, so refused requests run no read. On the in-process backend (the same algorithm as Redis).
import { describe, expect, it } from "vitest";
import { AppError } from "../src/platform/errors.ts";
import { createRateLimiters, LimitedWorkError, limitAlongside } from "../src/platform/ratelimit/index.ts";
import type { RateLimiter, RateLimitResult } from "../src/platform/ratelimit/types.ts";

/** A limiter whose answer waits until the test releases it. */
function heldLimiter(answer: RateLimitResult): { limiter: RateLimiter; release(): void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    limiter: {
      policy: { name: "held", limit: answer.limit, windowSeconds: 60 },
      limit: async () => {
        await held;
        return answer;
      },
      remaining: async () => ({ remaining: answer.remaining, reset: answer.reset }),
    },
    release,
  };
}

describe("limitAlongside", () => {
  it("starts the read during the limit's round trip for a client with room", async () => {
    const { limiter, release } = heldLimiter({ success: true, limit: 30, remaining: 29, reset: Date.now() + 60_000 });
    let readStarted = false;
    const outcome = limitAlongside(limiter, "a:203.0.113.1", async () => {
      readStarted = true;
      return "data";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(readStarted).toBe(true);
    release();
    const { headers, value } = await outcome;
    expect(value).toBe("data");
    expect(headers.ratelimit).toMatch(/^"held";r=29;t=\d+$/);
  });

  it("runs exactly the allowed reads: near and past the limit the limit is asked first", async () => {
    const limiters = createRateLimiters({ prefix: `alongside-${Date.now()}` });
    const limiter = limiters.configured({ name: "alongside", limit: 3, windowSeconds: 60 });
    let reads = 0;
    const read = async () => ++reads;
    const outcomes: Array<number | string> = [];
    for (let request = 0; request < 8; request++) {
      try {
        outcomes.push((await limitAlongside(limiter, "agent:198.51.100.7", read)).value);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("RATE_LIMITED");
        expect(Number((error as AppError).headers["retry-after"])).toBeGreaterThan(0);
        outcomes.push("429");
      }
    }
    expect(outcomes).toEqual([1, 2, 3, "429", "429", "429", "429", "429"]);
    expect(reads).toBe(3);
    // Another client of the same limiter still has its whole budget, and its read runs alongside.
    expect((await limitAlongside(limiter, "agent:198.51.100.8", read)).value).toBe(4);
    await limiters.close();
  });

  it("hands a failed read back with the limit's headers, and a failed limit as it is", async () => {
    const limiters = createRateLimiters({ prefix: `alongside-errors-${Date.now()}` });
    const failure = await limitAlongside(limiters.help, "agent:192.0.2.1", async () => {
      throw new AppError("NOT_FOUND");
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LimitedWorkError);
    expect(((failure as LimitedWorkError).cause as AppError).code).toBe("NOT_FOUND");
    expect((failure as LimitedWorkError).headers["ratelimit-policy"]).toBe('"help";q=30;w=60');
    const down = () => Promise.reject(new Error("store down"));
    const broken: RateLimiter = { policy: limiters.help.policy, limit: down, remaining: down };
    let readRan = false;
    await expect(
      limitAlongside(broken, "agent:192.0.2.2", async () => {
        readRan = true;
        throw new Error("read failed too");
      }),
    ).rejects.toThrow("store down");
    expect(readRan).toBe(true); // started alongside; its failure is not left unhandled
    await limiters.close();
  });
});
