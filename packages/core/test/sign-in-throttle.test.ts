// The sign-in throttle with several app instances on one rate-limit store (two limiter sets with
// the same prefix, as two processes behind a load balancer have): the in-process store and, with
// REDIS_URL, a real Redis. A budget used up through one instance refuses sign-ins on every other,
// even the right password, with 429 and Retry-After, per account and IP and per IP (an IPv6
// client by its /64), until its window frees up.
import { randomBytes } from "node:crypto";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PASSWORD_CHECKS_AT_ONCE } from "../src/people/limits.ts";
import { hashPassword } from "../src/people/passwords.ts";
import { signInAdmin } from "../src/people/sign-in.ts";
import { isAppError } from "../src/platform/errors.ts";
import { FAILED_SIGN_INS_PER_IP_PER_WINDOW, FAILED_SIGN_INS_PER_WINDOW } from "../src/platform/limits.ts";
import { createRateLimiters } from "../src/platform/ratelimit/index.ts";
import type { RateLimiters } from "../src/platform/ratelimit/types.ts";

const PASSWORD = "right password";
const THROTTLED = "Too many failed sign-ins. Try again later.";
const WINDOW_SECONDS = 15 * 60;
const redisUrl = process.env.REDIS_URL || undefined;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-t", name: "Throttle" } });
  const passwordHash = await hashPassword(PASSWORD);
  for (const id of ["ada", "bob"]) {
    await db.prisma.user.create({ data: { id, workspaceId: "ws-t", email: `${id}@example.com`, passwordHash } });
  }
});

afterAll(async () => {
  await db?.close();
});

const open: RateLimiters[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((limiters) => limiters.close()));
});

/** How a refused sign-in answers, or a failure when it was not refused. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(error)) throw new Error(`expected the sign-in refused, got ${JSON.stringify(error)}`);
  return { status: error.status, message: error.message, retryAfter: error.headers["retry-after"] };
}

const backends = [
  { name: "in-process", redisUrl: undefined, missing: false },
  { name: "Redis (REDIS_URL)", redisUrl, missing: !redisUrl },
] as const;

describe.each(backends)("sign-ins through two instances on the $name store", ({ redisUrl: url, missing }) => {
  const test = it.skipIf(missing);

  /** Two app instances: their own limiter sets (and connections), one store. */
  function twoInstances() {
    const prefix = `test:${randomBytes(6).toString("hex")}`;
    const [first, second] = [0, 1].map(() => {
      const limiters = createRateLimiters({ redisUrl: url, prefix });
      open.push(limiters);
      return (email: string, password: string, ip: string) => signInAdmin({ db, limiters }, { email, password }, ip);
    });
    return { first: first!, second: second! };
  }

  test("failures spread over both use one budget: the next sign-in is refused on either, even the right password", async () => {
    freezeClockAtWindowStart(WINDOW_SECONDS);
    const { first, second } = twoInstances();
    const ip = "198.51.100.7";
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_WINDOW; attempt++) {
      const instance = attempt % 2 === 0 ? first : second;
      await expect(instance("ada@example.com", `wrong-${attempt}`, ip)).resolves.toBeNull();
    }
    // 1 s into the window: 899 s to its end, and a second more until a sign-in passes again.
    const throttled = { status: 429, message: THROTTLED, retryAfter: "900" };
    expect(await refusal(second("ada@example.com", PASSWORD, ip))).toEqual(throttled);
    expect(await refusal(first("ada@example.com", PASSWORD, ip))).toEqual(throttled);
    expect(await refusal(second("Ada@Example.com", "wrong again", ip))).toEqual(throttled);
    // The budget is the account's from that address: another account, or another address, signs in.
    await expect(second("bob@example.com", PASSWORD, ip)).resolves.toMatchObject({ userId: "bob" });
    await expect(second("ada@example.com", PASSWORD, "198.51.100.8")).resolves.toMatchObject({ userId: "ada" });
  });

  test("a block started on one instance lasts until its window frees up, then the other lets the right password in", async () => {
    freezeClockAtWindowStart(WINDOW_SECONDS);
    const { first, second } = twoInstances();
    const ip = "198.51.100.9";
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_WINDOW; attempt++) await first("ada@example.com", "wrong", ip);
    const { retryAfter } = await refusal(second("ada@example.com", PASSWORD, ip));
    const blockedAt = Date.now();
    vi.setSystemTime(blockedAt + (Number(retryAfter) - 1) * 1000);
    expect((await refusal(second("ada@example.com", PASSWORD, ip))).status).toBe(429);
    vi.setSystemTime(blockedAt + Number(retryAfter) * 1000);
    await expect(second("ada@example.com", PASSWORD, ip)).resolves.toMatchObject({ userId: "ada" });
  });

  test(`sign-ins sent at once get no more guesses than the budget and the ${PASSWORD_CHECKS_AT_ONCE} hashes in flight`, async () => {
    freezeClockAtWindowStart(WINDOW_SECONDS);
    const { first, second } = twoInstances();
    const ip = "198.51.100.11";
    const sentAtOnce = 4 * FAILED_SIGN_INS_PER_WINDOW;
    const outcomes = await Promise.allSettled(
      Array.from({ length: sentAtOnce }, (_, index) => (index % 2 === 0 ? first : second)("ada@example.com", `guess-${index}`, ip)),
    );
    // A guess that was checked answers null; one refused before its hash, 429.
    const checked = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    const refused = outcomes.filter(
      (outcome) => outcome.status === "rejected" && isAppError(outcome.reason) && outcome.reason.status === 429,
    );
    expect(checked + refused.length).toBe(sentAtOnce);
    // Both instances run in this process, so they share one hash queue: at most that many hashes
    // start while the budget's last unit is being used.
    expect(checked).toBeGreaterThanOrEqual(FAILED_SIGN_INS_PER_WINDOW);
    expect(checked).toBeLessThanOrEqual(FAILED_SIGN_INS_PER_WINDOW + PASSWORD_CHECKS_AT_ONCE - 1);
    expect((await refusal(second("ada@example.com", PASSWORD, ip))).status).toBe(429);
  });

  test("the budget of an IPv6 /64, whatever the emails, used up on one instance refuses the whole /64 on the other", async () => {
    freezeClockAtWindowStart(WINDOW_SECONDS);
    const { first, second } = twoInstances();
    const inNetwork = (n: number) => `2001:db8:99:1:${n.toString(16)}::1`;
    for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_IP_PER_WINDOW; attempt++) {
      await expect(first(`guess-${attempt}@example.com`, "wrong", inNetwork(attempt))).resolves.toBeNull();
    }
    expect(await refusal(second("bob@example.com", PASSWORD, inNetwork(999)))).toEqual({
      status: 429,
      message: THROTTLED,
      retryAfter: "900",
    });
    await expect(second("bob@example.com", PASSWORD, "2001:db8:99:2::1")).resolves.toMatchObject({ userId: "bob" });
  });
});
