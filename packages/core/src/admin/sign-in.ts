// Admin sign-in: email and password against the stored bcrypt hash, with failed attempts
// throttled per email and client IP. An unknown email costs the same bcrypt work as a known one,
// so response time does not tell which emails exist.
import { type Database, hashPassword, verifyPassword } from "@parley/db";
import { z } from "zod";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../ratelimit/types.ts";
import type { AdminScope } from "./scope.ts";

export const credentialsInput = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().min(1).max(1_000),
});

export interface SignedInAdmin extends AdminScope {
  email: string;
  name: string;
}

// A hash of a random password, to compare against when the email is unknown.
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomUUID());
  return decoyHash;
}

/**
 * The admin for these credentials, or null when they are wrong. Throws SIGN_IN_THROTTLED while the email
 * and IP are over their failed-attempt budget, even for the right password.
 */
export async function signInAdmin(
  deps: { db: Database; signInLimiter: RateLimiter },
  credentials: unknown,
  clientIp: string,
): Promise<SignedInAdmin | null> {
  const parsed = credentialsInput.safeParse(credentials);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const identifier = `${clientIp}|${email}`;
  assertNotBlocked(deps.signInLimiter, identifier);

  const user = await deps.db.prisma.user.findUnique({
    where: { email },
    select: { id: true, workspaceId: true, email: true, name: true, passwordHash: true },
  });
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoy()));
  if (user && valid) return { userId: user.id, workspaceId: user.workspaceId, email: user.email, name: user.name };

  await countFailure(deps.signInLimiter, identifier);
  return null;
}

// The shared limiter (one store for all instances) counts failures only. Asking it whether an
// identifier is blocked would count one more, so the block it reports (its budget used up) is
// remembered here until its window frees up, and refuses even the right password meanwhile.
const blocked = new WeakMap<RateLimiter, Map<string, number>>();
const MAX_REMEMBERED = 10_000;

function assertNotBlocked(limiter: RateLimiter, identifier: string): void {
  const until = blocked.get(limiter)?.get(identifier);
  if (until === undefined) return;
  const seconds = Math.ceil((until - Date.now()) / 1000);
  if (seconds > 0) throw new AppError("SIGN_IN_THROTTLED", { headers: { "retry-after": String(seconds) } });
  blocked.get(limiter)?.delete(identifier);
}

async function countFailure(limiter: RateLimiter, identifier: string): Promise<void> {
  const result = await limiter.limit(identifier);
  // The failure that uses the last unit of the budget starts the block.
  if (!result.success || result.remaining <= 0) remember(limiter, identifier, Math.max(result.reset, Date.now() + 1000));
}

function remember(limiter: RateLimiter, identifier: string, until: number): void {
  const now = Date.now();
  let entries = blocked.get(limiter);
  if (!entries) {
    entries = new Map();
    blocked.set(limiter, entries);
  }
  if (entries.size >= MAX_REMEMBERED) {
    for (const [key, end] of entries) if (end <= now) entries.delete(key);
    if (entries.size >= MAX_REMEMBERED) entries.clear();
  }
  entries.set(identifier, until);
}
