// The inbox's counts for the signed-in person, the one query behind every place that shows them
// (the navigation, the page title, the alerts):
// - mine: conversations assigned to the person, not resolved, with a visitor message they have not
//   seen (unread.ts: before their first view, what came after they joined). Unread rather than "waiting for a reply": opening the conversation is what
//   clears it, so the count means "conversations with something I have not read yet".
// - unassigned: escalations nobody has taken (waitingEscalations, the queue of the whole team).
import type { Database } from "@parley/db";
import { assertCan } from "../../people/permissions.ts";
import type { AdminScope } from "../../people/scope.ts";
import { INBOX_ATTENTION_MAX } from "../limits.ts";
import { waitingEscalations } from "./conversations.ts";
import { isUnread } from "./unread.ts";

interface AttentionRow {
  id: string;
  visitorName: string | null;
  visitorEmail: string | null;
  firstPageUrl: string | null;
  lastVisitorAt: Date | null;
  viewedAt: Date | null;
  assignedBy: string | null;
}

/**
 * The navigation's counts for the signed-in person (see the head of this file), and their open
 * assigned conversations for the alerts. Reads the person's assigned conversations on the
 * assignee index, each one's last visitor message on (conversationId, sequence), its last
 * assignment on the timeline's (conversationId, createdAt) and the person's view on its primary key.
 */
export async function inboxCounts(db: Database, scope: AdminScope) {
  assertCan(scope, "inbox.read");
  const [mineRows, attention, waiting] = await Promise.all([
    db.prisma.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS "count"
      FROM "Conversation" c
      JOIN "Agent" a ON a."id" = c."agentId"
      JOIN "User" p ON p."id" = ${scope.userId}
      LEFT JOIN "ConversationView" v ON v."conversationId" = c."id" AND v."userId" = ${scope.userId}
      JOIN LATERAL (
        SELECT m."createdAt" FROM "Message" m
        WHERE m."conversationId" = c."id" AND m."role" = 'user' ORDER BY m."sequence" DESC LIMIT 1
      ) u ON true
      WHERE c."assigneeId" = ${scope.userId} AND a."workspaceId" = ${scope.workspaceId}
        AND c."status" <> 'resolved' AND c."test" = false
        AND u."createdAt" > COALESCE(v."viewedAt", p."createdAt")`,
    db.prisma.$queryRaw<AttentionRow[]>`
      SELECT c."id", c."visitorName", c."visitorEmail", c."firstPageUrl", u."createdAt" AS "lastVisitorAt",
             COALESCE(v."viewedAt", p."createdAt") AS "viewedAt",
             s."actorId" AS "assignedBy"
      FROM "Conversation" c
      JOIN "Agent" a ON a."id" = c."agentId"
      JOIN "User" p ON p."id" = ${scope.userId}
      LEFT JOIN "ConversationView" v ON v."conversationId" = c."id" AND v."userId" = ${scope.userId}
      LEFT JOIN LATERAL (
        SELECT m."createdAt" FROM "Message" m
        WHERE m."conversationId" = c."id" AND m."role" = 'user' ORDER BY m."sequence" DESC LIMIT 1
      ) u ON true
      LEFT JOIN LATERAL (
        SELECT act."actorId" FROM "ConversationActivity" act
        WHERE act."conversationId" = c."id" AND act."kind" IN ('assigned', 'taken_over') ORDER BY act."createdAt" DESC LIMIT 1
      ) s ON true
      WHERE c."assigneeId" = ${scope.userId} AND a."workspaceId" = ${scope.workspaceId}
        AND c."status" <> 'resolved' AND c."test" = false
      ORDER BY c."updatedAt" DESC, c."id" DESC
      LIMIT ${INBOX_ATTENTION_MAX}`,
    waitingEscalations(db, scope),
  ]);
  return {
    mine: mineRows[0]?.count ?? 0,
    unassigned: waiting.count,
    oldestEscalatedAt: waiting.oldestEscalatedAt,
    assigned: attention.map((row) => ({
      id: row.id,
      visitorName: row.visitorName,
      visitorEmail: row.visitorEmail,
      firstPageUrl: row.firstPageUrl,
      lastVisitorMessageAt: row.lastVisitorAt,
      unread: isUnread(row.lastVisitorAt, row.viewedAt),
      /** The person took it or assigned it to themselves (in any tab): no "assigned to you" alert. */
      selfAssigned: row.assignedBy === scope.userId,
    })),
  };
}
