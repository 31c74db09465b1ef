// Inbox search: the conversations, most recently active first, whose messages contain every word
// of the query (each word also as a prefix: "invoic" finds "invoices"), or whose visitor name,
// email, phone, first page or client/page variables contain the query as a substring. Accents and
// case are ignored (the help search's folding). Within the inbox's filters.
//
// Speed on a million messages: a common word matches a large share of the messages, so the newest
// conversations are asked first (a window of INBOX_SEARCH_WINDOW, each checked through its own
// messages), which holds the page at once; only when the window falls short does the search read
// the word index in full, which is then cheap because the words are rare.
import type { Database } from "@parley/db";
import { Prisma } from "@parley/db";
import { INBOX_SEARCH_WINDOW } from "../limits.ts";

export interface SearchFilters {
  workspaceId: string;
  agentId?: string;
  channel?: "api" | "widget";
  status?: "active" | "escalated" | "resolved";
  /** null: unassigned. */
  assigneeId?: string | null;
  createdFrom?: Date;
  createdTo?: Date;
  /** The id of the last conversation of the previous page. */
  cursor?: string | null;
}

/** The words of a query, folded in SQL; letters and digits only, so the tsquery cannot be malformed. */
export function searchWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 10);
}

/** `%`, `_` and `\` of the query match themselves in LIKE. */
function likePattern(query: string): string {
  return `%${query.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filterSql(filters: SearchFilters): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`a."workspaceId" = ${filters.workspaceId}`];
  if (filters.agentId) parts.push(Prisma.sql`c."agentId" = ${filters.agentId}`);
  if (filters.channel) parts.push(Prisma.sql`c."channel" = ${filters.channel}::"ConversationChannel"`);
  if (filters.status) parts.push(Prisma.sql`c."status" = ${filters.status}::"ConversationStatus"`);
  if (filters.assigneeId === null) parts.push(Prisma.sql`c."assigneeId" IS NULL`);
  else if (filters.assigneeId) parts.push(Prisma.sql`c."assigneeId" = ${filters.assigneeId}`);
  if (filters.createdFrom) parts.push(Prisma.sql`c."createdAt" >= (${filters.createdFrom.toISOString()}::timestamptz AT TIME ZONE 'UTC')`);
  if (filters.createdTo) parts.push(Prisma.sql`c."createdAt" < (${filters.createdTo.toISOString()}::timestamptz AT TIME ZONE 'UTC')`);
  if (filters.cursor) {
    parts.push(Prisma.sql`(c."updatedAt", c."id") < (SELECT p."updatedAt", p."id" FROM "Conversation" p WHERE p."id" = ${filters.cursor})`);
  }
  return Prisma.join(parts, " AND ");
}

/** Ids of the matching conversations, newest activity first, at most `take`. */
export async function searchConversationIds(db: Database, query: string, filters: SearchFilters, take: number): Promise<string[]> {
  const words = searchWords(query);
  const tsquery = words.length > 0 ? words.map((word) => `${word}:*`).join(" & ") : null;
  const matches = Prisma.sql`(
    c."searchVisitor" LIKE parley_search_text(${likePattern(query)})
    ${
      tsquery === null
        ? Prisma.empty
        : Prisma.sql`OR EXISTS (
      SELECT 1 FROM "Message" m
      WHERE m."conversationId" = c."id" AND m."searchDocument" @@ to_tsquery('simple'::regconfig, parley_search_text(${tsquery}))
    )`
    }
  )`;
  const where = filterSql(filters);

  // The newest conversations first: enough for common words.
  const windowed = await db.prisma.$queryRaw<Array<{ id: string; candidates: number }>>`
    WITH "window" AS (
      SELECT c."id", c."updatedAt", c."searchVisitor"
      FROM "Conversation" c JOIN "Agent" a ON a."id" = c."agentId"
      WHERE ${where}
      ORDER BY c."updatedAt" DESC, c."id" DESC
      LIMIT ${INBOX_SEARCH_WINDOW}
    )
    SELECT c."id", (SELECT count(*)::int FROM "window") AS "candidates"
    FROM "window" c
    WHERE ${matches}
    ORDER BY c."updatedAt" DESC, c."id" DESC
    LIMIT ${take}`;
  const candidates = windowed[0]?.candidates ?? 0;
  if (windowed.length >= take || (windowed.length > 0 ? candidates : await countCandidates(db, where)) < INBOX_SEARCH_WINDOW) {
    return windowed.map((row) => row.id);
  }

  // Rarer words: every match, through the word index.
  const rows = await db.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT c."id"
    FROM "Conversation" c JOIN "Agent" a ON a."id" = c."agentId"
    WHERE ${where} AND (
      c."searchVisitor" LIKE parley_search_text(${likePattern(query)})
      ${
        tsquery === null
          ? Prisma.empty
          : Prisma.sql`OR c."id" IN (
        SELECT m."conversationId" FROM "Message" m
        WHERE m."searchDocument" @@ to_tsquery('simple'::regconfig, parley_search_text(${tsquery}))
      )`
      }
    )
    ORDER BY c."updatedAt" DESC, c."id" DESC
    LIMIT ${take}`;
  return rows.map((row) => row.id);
}

async function countCandidates(db: Database, where: Prisma.Sql): Promise<number> {
  const rows = await db.prisma.$queryRaw<Array<{ count: number }>>`
    SELECT count(*)::int AS "count" FROM (
      SELECT 1 FROM "Conversation" c JOIN "Agent" a ON a."id" = c."agentId" WHERE ${where} LIMIT ${INBOX_SEARCH_WINDOW}
    ) w`;
  return rows[0]?.count ?? 0;
}
