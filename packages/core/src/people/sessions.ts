// Panel sessions held in the database. Sign-in starts one; its id travels in the session cookie;
// every authenticated request checks it here, against the database (no cache outlives a request),
// so ending a session, or all of a user's, takes effect at once on every instance. A session ends
// at sign-out, when ended with all of its user's (password change, deactivation), or after
// SESSION_IDLE_SECONDS without a request.
import type { Database, Prisma } from "@parley/db";
import { SESSION_IDLE_SECONDS, SESSION_TOUCH_SECONDS, SESSION_USER_AGENT_MAX_CHARS } from "./limits.ts";
import type { AdminScope } from "./scope.ts";

/** The admin of a live session: their scope as the database has it now. */
export interface SessionAdmin extends AdminScope {
  sessionId: string;
  email: string;
  name: string;
  expiresAt: Date;
}

export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

const idleEnd = (now: Date) => new Date(now.getTime() + SESSION_IDLE_SECONDS * 1000);

/** Starts a session for a user who has just signed in (and forgets their sessions that ended a while ago). */
export async function startSession(
  db: Database,
  input: { userId: string; ip: string | null; userAgent: string | null },
  now: Date,
): Promise<{ id: string; expiresAt: Date }> {
  const longAgo = new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000);
  await db.prisma.session.deleteMany({
    where: { userId: input.userId, OR: [{ revokedAt: { lt: longAgo } }, { expiresAt: { lt: longAgo } }] },
  });
  return db.prisma.session.create({
    data: {
      userId: input.userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: idleEnd(now),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, SESSION_USER_AGENT_MAX_CHARS) || null,
    },
    select: { id: true, expiresAt: true },
  });
}

/**
 * The admin of a session that is still live and belongs to `userId`, or null (unknown, ended,
 * expired, another user's). Records the use at most once every SESSION_TOUCH_SECONDS, which moves
 * the idle end forward; `touch: false` only looks (a long-lived stream asking again is no use).
 */
export async function checkSession(
  db: Database,
  ids: { sessionId: string; userId: string },
  now: Date,
  { touch = true }: { touch?: boolean } = {},
): Promise<SessionAdmin | null> {
  const session = await db.prisma.session.findUnique({
    where: { id: ids.sessionId },
    select: {
      userId: true,
      lastSeenAt: true,
      expiresAt: true,
      revokedAt: true,
      user: { select: { workspaceId: true, email: true, name: true, role: true, deactivatedAt: true } },
    },
  });
  if (!session || session.userId !== ids.userId || session.revokedAt !== null || session.expiresAt <= now) return null;
  // Deactivation ends the sessions too; this also covers one started in the same instant.
  if (session.user.deactivatedAt !== null) return null;
  let expiresAt = session.expiresAt;
  const touchBefore = new Date(now.getTime() - SESSION_TOUCH_SECONDS * 1000);
  if (touch && session.lastSeenAt <= touchBefore) {
    expiresAt = idleEnd(now);
    // Conditional: of several instances seeing the session in the same minute, one writes; none
    // brings an ended session back.
    await db.prisma.session.updateMany({
      where: { id: ids.sessionId, revokedAt: null, lastSeenAt: { lte: touchBefore } },
      data: { lastSeenAt: now, expiresAt },
    });
  }
  const { workspaceId, email, name, role } = session.user;
  return { sessionId: ids.sessionId, userId: ids.userId, workspaceId, role, email, name, expiresAt };
}

/** Ends one session (sign-out). Ending an ended or unknown session does nothing. */
export async function endSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.prisma.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** Ends every live session of a user (password change, deactivation) but `keep`'s; returns how many. */
export async function endAllSessions(db: Database, userId: string, now: Date, keep?: string): Promise<number> {
  const { count } = await db.prisma.session.updateMany({
    where: { userId, revokedAt: null, expiresAt: { gt: now }, ...(keep ? { id: { not: keep } } : {}) },
    data: { revokedAt: now },
  });
  return count;
}

/** A user's live sessions, most recently used first (to list them and end one). */
export async function listSessions(db: Database, userId: string, now: Date): Promise<SessionSummary[]> {
  return db.prisma.session.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, ip: true, userAgent: true },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });
}

/** Ends one of the user's own sessions (in the caller's transaction); false when it is not theirs or not live. */
export async function endOwnSession(
  client: Pick<Prisma.TransactionClient, "session">,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const { count } = await client.session.updateMany({
    where: { id: sessionId, userId, revokedAt: null, expiresAt: { gt: now } },
    data: { revokedAt: now },
  });
  return count === 1;
}
