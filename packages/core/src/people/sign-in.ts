// Admin sign-in: email and password against the stored hash, with failed attempts throttled per
// email and client IP, and per IP whatever the email (so trying many emails does not escape it).
// An unknown email costs the same hash work as a known one, so response time does not tell which
// emails exist. Hashes run in the thread pool (packages/db/src/password.ts), at most
// PASSWORD_CHECKS_AT_ONCE at a time: a flood of sign-ins queues instead of taking every thread.
import type { Database } from "@parley/db";
import pLimit from "p-limit";
import { z } from "zod";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError } from "../platform/errors.ts";
import { retryAfterSeconds } from "../platform/ratelimit/headers.ts";
import type { RateLimiter } from "../platform/ratelimit/types.ts";
import { PEOPLE_ERRORS } from "./errors.ts";
import { PASSWORD_CHECKS_AT_ONCE } from "./limits.ts";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.ts";
import type { AdminScope } from "./scope.ts";

export const credentialsInput = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().min(1).max(1_000),
});

export interface SignedInAdmin extends AdminScope {
  email: string;
  name: string;
}

export interface SignInLimiters {
  /** Failures per email and IP. */
  signIn: RateLimiter;
  /** Failures per IP. */
  signInIp: RateLimiter;
}

/** The queue every password hash of this process goes through (exported for tests to observe). */
export const passwordWork = pLimit(PASSWORD_CHECKS_AT_ONCE);

// A hash of a random password, to compare against when the email is unknown.
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= passwordWork(() => hashPassword(crypto.randomUUID()));
  return decoyHash;
}

/**
 * The admin for these credentials, or null when they are wrong. Throws SIGN_IN_THROTTLED while the
 * email and IP, or the IP, are over their failed-attempt budget, even for the right password (and
 * then computes no hash). A hash of an older kind (bcrypt) is replaced at a successful sign-in.
 */
export async function signInAdmin(
  deps: { db: Database; limiters: SignInLimiters },
  credentials: unknown,
  clientIp: string,
): Promise<SignedInAdmin | null> {
  const parsed = credentialsInput.safeParse(credentials);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const budgets: Array<[RateLimiter, string]> = [
    [deps.limiters.signInIp, limitAddress(clientIp)],
    [deps.limiters.signIn, `${limitAddress(clientIp)}|${email}`],
  ];
  await assertNotBlocked(budgets);

  const user = await deps.db.prisma.user.findUnique({
    where: { email },
    select: { id: true, workspaceId: true, email: true, name: true, role: true, passwordHash: true, deactivatedAt: true },
  });
  const hash = user?.passwordHash ?? (await decoy());
  // Sign-ins sent at once all pass the check above: the budget is read again in the hash's turn,
  // and a failure counted before that turn ends, so only the hashes in flight can outrun a block.
  const accepted = await passwordWork(async () => {
    await assertNotBlocked(budgets);
    // A deactivated person is refused like wrong credentials (and it counts as a failure).
    const right = (await verifyPassword(password, hash)) && user !== null && user.deactivatedAt === null;
    if (!right) for (const [limiter, identifier] of budgets) await limiter.limit(identifier);
    return right;
  });
  if (!user || !accepted) return null;
  if (needsRehash(user.passwordHash)) await rehash(deps.db, user.id, user.passwordHash, password);
  return { userId: user.id, workspaceId: user.workspaceId, role: user.role, email: user.email, name: user.name };
}

/** Replaces an older hash with today's; only if it is still the one just checked (a concurrent password change wins). */
async function rehash(db: Database, userId: string, oldHash: string, password: string): Promise<void> {
  const passwordHash = await passwordWork(() => hashPassword(password));
  await db.prisma.user.updateMany({ where: { id: userId, passwordHash: oldHash }, data: { passwordHash } });
}

// The shared limiter counts failures only; a budget used up there refuses every sign-in (even the
// right password, with no hash computed) until its window frees up. The state is read from the
// shared store without counting, so a block one instance starts holds on every other at once.
async function assertNotBlocked(budgets: Array<[RateLimiter, string]>): Promise<void> {
  const left = await Promise.all(budgets.map(async ([limiter, identifier]) => ({ limiter, ...(await limiter.remaining(identifier)) })));
  const now = Date.now();
  const waits = left
    .filter(({ remaining }) => remaining <= 0)
    .map(({ limiter, reset }) => retryAfterSeconds(limiter.policy, { reset }, now));
  if (waits.length === 0) return;
  throw new AppError(PEOPLE_ERRORS.SIGN_IN_THROTTLED, { headers: { "retry-after": String(Math.max(...waits)) } });
}
