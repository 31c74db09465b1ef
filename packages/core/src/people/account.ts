// A person's own account: who they are, their password (the current one required to change it;
// every other session ends) and their live sessions (list, end one). An operator who lost access
// resets a password from the command line (resetPassword).
import { randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { RateLimiters } from "../platform/ratelimit/types.ts";
import { CLI_ACTOR, recordAudit } from "./audit.ts";
import { PEOPLE_ERRORS } from "./errors.ts";
import { OTHER_SESSIONS_ENDS_PER_WINDOW, PASSWORD_CHANGES_PER_WINDOW, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS } from "./limits.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import type { AdminScope } from "./scope.ts";
import { endAllSessions, endOwnSession, listSessions } from "./sessions.ts";
import { passwordWork } from "./sign-in.ts";
import { describeUserAgent } from "./user-agent.ts";

/** A password a person sets (invitation, change, reset): the seed's ADMIN_PASSWORD rule. */
export const newPasswordInput = z
  .string()
  .min(PASSWORD_MIN_CHARS, `Use at least ${PASSWORD_MIN_CHARS} characters`)
  .max(PASSWORD_MAX_CHARS, `Use at most ${PASSWORD_MAX_CHARS} characters`);

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(PASSWORD_MAX_CHARS),
  newPassword: newPasswordInput,
});
export const sessionIdInput = z.object({ id: z.string().trim().min(1).max(200) });

const PASSWORD_CHANGES_POLICY = { name: "password-changes", limit: PASSWORD_CHANGES_PER_WINDOW, windowSeconds: 15 * 60 };
const OTHER_SESSIONS_ENDS_POLICY = { name: "other-sessions-ends", limit: OTHER_SESSIONS_ENDS_PER_WINDOW, windowSeconds: 15 * 60 };

export async function getAccount(db: Database, scope: AdminScope) {
  const user = await db.prisma.user.findUniqueOrThrow({
    where: { id: scope.userId },
    select: { id: true, email: true, name: true, role: true },
  });
  return user;
}

/**
 * Changes the person's password after checking the current one (WRONG_CURRENT_PASSWORD), then ends
 * every other session of theirs; the one making the change stays signed in. Returns how many ended.
 */
export async function changePassword(
  deps: { db: Database; limiters: RateLimiters },
  scope: AdminScope & { sessionId?: string },
  input: z.infer<typeof changePasswordInput>,
  now: Date,
): Promise<{ endedSessions: number }> {
  await enforceRateLimit(deps.limiters.configured(PASSWORD_CHANGES_POLICY), scope.userId);
  const user = await deps.db.prisma.user.findUniqueOrThrow({
    where: { id: scope.userId },
    select: { id: true, email: true, passwordHash: true },
  });
  const valid = await passwordWork(() => verifyPassword(input.currentPassword, user.passwordHash));
  if (!valid) throw new AppError(PEOPLE_ERRORS.WRONG_CURRENT_PASSWORD);
  const passwordHash = await passwordWork(() => hashPassword(input.newPassword));
  // Conditional: a concurrent change of the same password wins, this one is refused.
  await deps.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: scope.userId, passwordHash: user.passwordHash },
      data: { passwordHash },
    });
    if (count !== 1) throw new AppError(PEOPLE_ERRORS.WRONG_CURRENT_PASSWORD);
    await recordAudit(tx, scope, { action: "account.password.changed", ...ownTarget(user) });
  });
  return { endedSessions: await endAllSessions(deps.db, scope.userId, now, scope.sessionId) };
}

/**
 * The person's live sessions, each named by its browser ("Chrome on Linux"): the current one first
 * and marked, then the others, most recently used first.
 */
export async function ownSessions(db: Database, scope: AdminScope & { sessionId?: string }, now: Date) {
  const sessions = await listSessions(db, scope.userId, now);
  const named = sessions.map((session) => ({
    ...session,
    browser: describeUserAgent(session.userAgent),
    current: session.id === scope.sessionId,
  }));
  return [...named.filter((session) => session.current), ...named.filter((session) => !session.current)];
}

/** "Sign out everywhere else": ends every live session of the person but the one asking; returns how many ended. */
export async function endOtherSessions(
  deps: { db: Database; limiters: RateLimiters },
  scope: AdminScope & { sessionId?: string },
  now: Date,
): Promise<{ endedSessions: number }> {
  await enforceRateLimit(deps.limiters.configured(OTHER_SESSIONS_ENDS_POLICY), scope.userId);
  // Without the asking session's id there is nothing to keep: refuse rather than end them all.
  if (!scope.sessionId) throw new AppError("UNAUTHORIZED");
  const keep = scope.sessionId;
  return deps.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.session.updateMany({
      where: { userId: scope.userId, revokedAt: null, expiresAt: { gt: now }, id: { not: keep } },
      data: { revokedAt: now },
    });
    if (count > 0) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: scope.userId }, select: { id: true, email: true } });
      await recordAudit(tx, scope, { action: "account.sessions.ended", ...ownTarget(user), detail: { ended: count } });
    }
    return { endedSessions: count };
  });
}

/** Ends one of the person's own sessions (a session of someone else is not found). */
export async function endOwnSessionById(db: Database, scope: AdminScope, id: string, now: Date): Promise<{ ended: boolean }> {
  return db.prisma.$transaction(async (tx) => {
    const ended = await endOwnSession(tx, scope.userId, id, now);
    if (ended) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: scope.userId }, select: { id: true, email: true } });
      await recordAudit(tx, scope, { action: "account.session.ended", targetType: "session", targetId: id, targetLabel: user.email });
    }
    return { ended };
  });
}

const ownTarget = (user: { id: string; email: string }) => ({ targetType: "person", targetId: user.id, targetLabel: user.email }) as const;

/**
 * For an operator who lost access (the command line): sets a new password, the given one or a
 * generated one (returned to print once), and ends every session of the person.
 */
export async function resetPassword(
  db: Database,
  email: string,
  now: Date,
  password?: string,
): Promise<{ email: string; generatedPassword?: string; endedSessions: number }> {
  const user = await db.prisma.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, email: true, workspaceId: true },
  });
  if (!user) throw new AppError(PEOPLE_ERRORS.TEAM_MEMBER_NOT_FOUND);
  const generatedPassword = password === undefined ? randomBytes(18).toString("base64url") : undefined;
  const plain = newPasswordInput.parse(password ?? generatedPassword);
  const passwordHash = await passwordWork(() => hashPassword(plain));
  await db.prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const operator = { workspaceId: user.workspaceId, userId: null, email: CLI_ACTOR };
    await recordAudit(tx, operator, { action: "account.password.reset", ...ownTarget(user) });
  });
  const endedSessions = await endAllSessions(db, user.id, now);
  return { email: user.email, generatedPassword, endedSessions };
}
