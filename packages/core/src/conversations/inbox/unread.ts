// Per-person unread state: a conversation is unread for a person while its visitor's last message
// is newer than that person's last view of its page (ConversationView); opening the page marks it
// read. A person who joins the team starts with nothing unread: what visitors wrote before their
// account existed counts as read (an unviewed conversation is read as of the person's createdAt).
// Visibility is the inbox's own rule (inbox.read and the person's workspace): a person marks
// and sees the unread state only of conversations they may open, and only their own. The counts
// built on it are in counts.ts.
import type { Database } from "@parley/db";
import { assertCan } from "../../people/permissions.ts";
import type { AdminScope } from "../../people/scope.ts";
import { AppError } from "../../platform/errors.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";

/** Marks the conversation read for the signed-in person (they opened its page) as of `now`. */
export async function markConversationRead(db: Database, scope: AdminScope, id: string, now: Date = new Date()) {
  assertCan(scope, "inbox.read");
  const conversation = await db.prisma.conversation.findFirst({
    where: { id, agent: { workspaceId: scope.workspaceId } },
    select: { id: true },
  });
  if (!conversation) throw new AppError(CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND);
  await db.prisma.conversationView.upsert({
    where: { userId_conversationId: { userId: scope.userId, conversationId: id } },
    create: { userId: scope.userId, conversationId: id, viewedAt: now },
    update: { viewedAt: now },
  });
  return { ok: true as const };
}

/** Whether a visitor message at `lastVisitorAt` is unread for a person who last viewed at `viewedAt`. */
export function isUnread(lastVisitorAt: Date | null, viewedAt: Date | null): boolean {
  return lastVisitorAt !== null && (viewedAt === null || lastVisitorAt.getTime() > viewedAt.getTime());
}

/**
 * Of these conversations (already of the person's workspace, with their visitor's last message
 * time), the ids unread for the person: one primary-key read of their views.
 */
export async function unreadIds(
  db: Database,
  userId: string,
  rows: ReadonlyArray<{ id: string; lastVisitorAt: Date | null }>,
): Promise<Set<string>> {
  const candidates = rows.filter((row) => row.lastVisitorAt !== null);
  if (candidates.length === 0) return new Set();
  const [views, person] = await Promise.all([
    db.prisma.conversationView.findMany({
      where: { userId, conversationId: { in: candidates.map((row) => row.id) } },
      select: { conversationId: true, viewedAt: true },
    }),
    db.prisma.user.findUnique({ where: { id: userId }, select: { createdAt: true } }),
  ]);
  const viewedAt = new Map(views.map((view) => [view.conversationId, view.viewedAt]));
  const joinedAt = person?.createdAt ?? null;
  return new Set(candidates.filter((row) => isUnread(row.lastVisitorAt, viewedAt.get(row.id) ?? joinedAt)).map((row) => row.id));
}
