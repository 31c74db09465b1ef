// Inbox search: the conversations, most recently active first, whose messages contain every word
// of the query (each word also as a prefix: "invoic" finds "invoices"), or whose visitor name,
// email, phone, first page or client/page variables contain the query as a substring, or whose tag
// (identity.ts visitorTag) the query is. Accents and case are ignored (the help search's folding).
// Within the inbox's filters.
//
// Speed on a million messages: a common word matches a large share of the messages, so the newest
// conversations are asked first (a window of INBOX_SEARCH_WINDOW, walked on the newest-first index,
// each checked through its own messages), which holds the page at once; only when the window falls short does the search read
// the word index in full, which is then cheap because the words are rare.
import type { Database } from "@parley/db";
import { Prisma } from "@parley/db";
import { TAG_LENGTH, tagInQuery } from "../identity.ts";
import { INBOX_SEARCH_WINDOW } from "../limits.ts";

export interface SearchFilters {
  workspaceId: string;
  agentId?: string;
  channel?: "api" | "widget";
  /** true: only test chats; absent or false: only real conversations. */
  test?: boolean;
  status?: "active" | "escalated" | "resolved";
  /** null: unassigned. */
  assigneeId?: string | null;
  /** Only the conversations the visitor rated so. */
  rating?: "good" | "okay" | "bad";
  createdFrom?: Date;
  createdTo?: Date;
  /** The id of the last conversation of the previous page. */
  cursor?: string | null;
}

/** The words of a query, folded in SQL; letters and digits only, so the tsquery cannot be malformed. */
export function searchWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 10);
}

/**
 * A conversation's tag in SQL (identity.ts visitorTag, lower case): the expression of the index
 * Conversation_tag_idx, written as a literal so that the planner uses it.
 */
const TAG_OF_CONVERSATION = Prisma.raw(`right(v."id", ${TAG_LENGTH})`);

/** `%`, `_` and `\` of the query match themselves in LIKE. */
function likePattern(query: string): string {
  return `%${query.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filterSql(filters: SearchFilters, agentIds: string[]): Prisma.Sql {
  // The workspace's agents as a list of values (not a join or sub-select), so the planner knows how
  // many conversations they hold and walks the newest-first index ("updatedAt", "id") in order.
  const parts: Prisma.Sql[] = [Prisma.sql`c."agentId" = ANY(${agentIds}::text[])`];
  if (filters.channel) parts.push(Prisma.sql`c."channel" = ${filters.channel}::"ConversationChannel"`);
  parts.push(Prisma.sql`c."test" = ${filters.test ?? false}`);
  if (filters.status) parts.push(Prisma.sql`c."status" = ${filters.status}::"ConversationStatus"`);
  if (filters.assigneeId === null) parts.push(Prisma.sql`c."assigneeId" IS NULL`);
  else if (filters.assigneeId) parts.push(Prisma.sql`c."assigneeId" = ${filters.assigneeId}`);
  if (filters.rating) {
    parts.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "ConversationRating" r WHERE r."conversationId" = c."id" AND r."rating" = ${filters.rating}::"ConversationRatingValue")`,
    );
  }
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
  const pattern = likePattern(query);
  // "#K3Z9" (or "k3z9") also finds the conversation the panel tags so (identity.ts visitorTag).
  const tag = tagInQuery(query);
  const agents = await db.prisma.agent.findMany({
    where: { workspaceId: filters.workspaceId, ...(filters.agentId ? { id: filters.agentId } : {}) },
    select: { id: true },
  });
  if (agents.length === 0) return [];
  const where = filterSql(
    filters,
    agents.map((agent) => agent.id),
  );

  // The newest conversations first, each checked through its own messages: enough for common words.
  // (COALESCE keeps the word index out of this check: for a common word it would read every
  // posting, far more than the window's few thousand messages.)
  const window = await db.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT c."id" FROM "Conversation" c
    WHERE ${where}
    ORDER BY c."updatedAt" DESC, c."id" DESC
    LIMIT ${INBOX_SEARCH_WINDOW}`;
  const windowIds = window.map((row) => row.id);
  if (windowIds.length === 0) return [];
  const inWindow = await db.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT v."id" FROM "Conversation" v
    WHERE v."id" = ANY(${windowIds}::text[]) AND v."searchVisitor" LIKE parley_search_text(${pattern})
    ${tag === null ? Prisma.empty : Prisma.sql`UNION SELECT v."id" FROM "Conversation" v WHERE v."id" = ANY(${windowIds}::text[]) AND ${TAG_OF_CONVERSATION} = ${tag}`}
    ${
      tsquery === null
        ? Prisma.empty
        : Prisma.sql`UNION
    SELECT m."conversationId" FROM "Message" m
    WHERE m."conversationId" = ANY(${windowIds}::text[])
      AND COALESCE(m."searchDocument", ''::tsvector) @@ to_tsquery('simple'::regconfig, parley_search_text(${tsquery}))`
    }`;
  const matched = new Set(inWindow.map((row) => row.id));
  const found = windowIds.filter((id) => matched.has(id));
  if (found.length >= take || windowIds.length < INBOX_SEARCH_WINDOW) return found.slice(0, take);

  // Rarer words: every match, through the word and trigram indexes (a short list of ids), then
  // the filters and the order.
  const rows = await db.prisma.$queryRaw<Array<{ id: string }>>`
    WITH "hits" AS (
      SELECT v."id" FROM "Conversation" v WHERE v."searchVisitor" LIKE parley_search_text(${pattern})
      ${tag === null ? Prisma.empty : Prisma.sql`UNION SELECT v."id" FROM "Conversation" v WHERE ${TAG_OF_CONVERSATION} = ${tag}`}
      ${
        tsquery === null
          ? Prisma.empty
          : Prisma.sql`UNION
      SELECT m."conversationId" FROM "Message" m
      WHERE m."searchDocument" @@ to_tsquery('simple'::regconfig, parley_search_text(${tsquery}))`
      }
    )
    SELECT c."id"
    FROM "hits" h
    JOIN "Conversation" c ON c."id" = h."id"
    WHERE ${where}
    ORDER BY c."updatedAt" DESC, c."id" DESC
    LIMIT ${take}`;
  return rows.map((row) => row.id);
}
