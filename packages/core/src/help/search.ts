// Help-centre article search over visible articles only (./visibility.ts). One function serves
// the JSON list (recent first), the rendered search page and the agents' knowledge search
// (relevance). Matching is Postgres full-text search (words, stemmed, title weighted above
// content) OR a trigram-indexed substring match, both case- and accent-insensitive through the
// migration's parley_* functions, written as the index expressions so the GIN indexes answer
// them (one UNION branch per index; see matchingArticlesSql). Lists without a query read the
// partial index "Article_visible_recent_idx" per visible source (top N each) and merge: a few
// index entries per source instead of sorting every visible article. Every statement is built
// with Prisma.sql, so user input only ever travels as a bound parameter.
import { type Database, Prisma } from "@parley/db";
import { HELP_RANK_CANDIDATES } from "../limits.ts";
import { articleIsPublishedSql, articleIsVisibleSql, visibleSourcesSql } from "./visibility.ts";

export interface ArticleHit {
  id: string;
  sourceId: string;
  sourceName: string;
  title: string;
  /** Stored Markdown. */
  content: string;
  updatedAt: Date;
  /** Full-text rank (title-weighted) in "relevance" order; 0 for substring-only matches and in "recent" order. */
  rank: number;
}

export interface SearchOptions {
  limit: number;
  sourceId?: string;
  order: "relevance" | "recent";
  /** Rows to skip (paged collection lists). */
  offset?: number;
  /**
   * "all" (default): every word of the query must match, or the query as a substring. "any": at
   * least one word, ranked by how many and how well they match, no substring matching (the
   * knowledge agent's fallback for questions with extra words).
   */
  match?: "all" | "any";
}

/**
 * pg_trgm indexes a substring by its three-character pieces; a shorter one has none and would
 * scan the whole index, so shorter queries match by words only.
 */
const SUBSTRING_MIN_CHARS = 3;

/**
 * Visible articles of `agentId` matching `query` (trimmed; blank lists every visible article).
 * "recent": most recently updated first. "relevance": word matches by full-text rank (the newest
 * HELP_RANK_CANDIDATES of them are ranked), then substring-only matches (title before content),
 * recency breaking ties. The id breaks the last ties, so the order is total.
 */
export async function searchVisibleArticles(db: Database, agentId: string, query: string, options: SearchOptions): Promise<ArticleHit[]> {
  return db.prisma.$queryRaw<ArticleHit[]>(searchVisibleArticlesSql(agentId, query, options));
}

/** The statement searchVisibleArticles runs (exported so tests can EXPLAIN it). */
export function searchVisibleArticlesSql(agentId: string, query: string, options: SearchOptions): Prisma.Sql {
  const limit = positiveInt(options.limit, "limit");
  const offset = options.offset === undefined ? 0 : positiveInt(options.offset, "offset", 0);
  const q = query.trim();
  if (!q) return recentArticlesSql(agentId, { limit, offset, sourceId: options.sourceId });
  return matchingArticlesSql(agentId, q, { limit, offset, sourceId: options.sourceId, order: options.order, match: options.match });
}

export interface ArticleDate {
  id: string;
  sourceId: string;
  updatedAt: Date;
}

/** Ids and update times of visible articles, most recent first (sitemaps). */
export function listVisibleArticleDates(db: Database, agentId: string, limit: number): Promise<ArticleDate[]> {
  return db.prisma.$queryRaw<ArticleDate[]>(visibleArticleDatesSql(agentId, limit));
}

export function visibleArticleDatesSql(agentId: string, limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."sourceId", r."updatedAt"
    FROM (${recentVisibleSql(agentId, { limit: positiveInt(limit, "limit"), offset: 0 })}) r
    ORDER BY r."updatedAt" DESC, r."id"`;
}

/**
 * The newest visible articles (id, source, update time), ordered: top `offset + limit` of each
 * visible source from the partial index, merged, then the page cut out.
 */
function recentVisibleSql(agentId: string, page: { limit: number; offset: number; sourceId?: string }): Prisma.Sql {
  const perSource = page.offset + page.limit;
  const sourceFilter = page.sourceId === undefined ? Prisma.empty : Prisma.sql`WHERE s."id" = ${page.sourceId}`;
  return Prisma.sql`
    SELECT top."id", s."id" AS "sourceId", s."name" AS "sourceName", top."updatedAt"
    FROM (${visibleSourcesSql(agentId)}) s
    CROSS JOIN LATERAL (
      SELECT a."id", a."updatedAt"
      FROM "Article" a
      WHERE a."sourceId" = s."id" AND ${articleIsPublishedSql("a")}
      ORDER BY a."updatedAt" DESC, a."id"
      LIMIT ${perSource}
    ) top
    ${sourceFilter}
    ORDER BY top."updatedAt" DESC, top."id"
    LIMIT ${page.limit} OFFSET ${page.offset}`;
}

function recentArticlesSql(agentId: string, page: { limit: number; offset: number; sourceId?: string }): Prisma.Sql {
  // Content is read for the final page only, by primary key.
  return Prisma.sql`
    SELECT a."id", a."sourceId", r."sourceName", a."title", a."content", a."updatedAt", 0::float8 AS "rank"
    FROM (${recentVisibleSql(agentId, page)}) r
    JOIN "Article" a ON a."id" = r."id"
    ORDER BY r."updatedAt" DESC, r."id"`;
}

function matchingArticlesSql(
  agentId: string,
  q: string,
  options: { limit: number; offset: number; sourceId?: string; order: "relevance" | "recent"; match?: "all" | "any" },
): Prisma.Sql {
  const document = Prisma.sql`parley_article_document(a."title", a."content")`;
  // "any": the query's lexemes (stemmed, stop words dropped) joined with OR instead of AND.
  const tsquery =
    options.match === "any"
      ? Prisma.sql`replace(plainto_tsquery('english', parley_unaccent(${q}))::text, ' & ', ' | ')::tsquery`
      : Prisma.sql`websearch_to_tsquery('english', parley_unaccent(${q}))`;
  const useSubstring = options.match !== "any" && [...q].length >= SUBSTRING_MIN_CHARS;
  const pattern = Prisma.sql`'%' || parley_search_text(${escapeLike(q)}) || '%'`;
  const titleContains = Prisma.sql`parley_search_text(a."title") LIKE ${pattern}`;
  const contentContains = Prisma.sql`parley_search_text(a."content") LIKE ${pattern}`;
  const visible = articleIsVisibleSql("a", agentId, { sourceId: options.sourceId, notByPartialIndex: true });
  const pageEnd = options.offset + options.limit;

  // One branch per index, each the newest `n` visible rows matching one condition. A bitmap heap
  // scan then re-checks only its own condition: exact for the full-text index (no document is
  // computed), lower(unaccent()) of the matched rows for a trigram index. An OR of the three in
  // one scan would compute the costly document of every substring candidate.
  const branch = (condition: Prisma.Sql, n: number) => Prisma.sql`(
    SELECT a."id", a."updatedAt" FROM "Article" a
    WHERE ${visible} AND ${condition}
    ORDER BY a."updatedAt" DESC, a."id"
    LIMIT ${n})`;
  const substringBranches = (n: number) =>
    useSubstring ? Prisma.sql`UNION ${branch(titleContains, n)} UNION ${branch(contentContains, n)}` : Prisma.empty;
  const columns = Prisma.sql`a."id", a."sourceId", s."name" AS "sourceName", a."title", a."content", a."updatedAt"`;

  if (options.order === "recent") {
    // The page's rows are the newest of the union; only they are read in full. No rank: nothing
    // orders by it, and it would build the full-text document of every row of the page.
    return Prisma.sql`
      SELECT ${columns}, 0::float8 AS "rank"
      FROM (
        SELECT m."id", m."updatedAt" FROM (${branch(Prisma.sql`${document} @@ ${tsquery}`, pageEnd)} ${substringBranches(pageEnd)}) m
        ORDER BY m."updatedAt" DESC, m."id"
        LIMIT ${options.limit} OFFSET ${options.offset}
      ) page
      JOIN "Article" a ON a."id" = page."id"
      JOIN "Source" s ON s."id" = a."sourceId"
      ORDER BY page."updatedAt" DESC, page."id"`;
  }

  // Relevance: word matches by rank (title weighted), then substring-only matches (rank 0).
  // Ranking needs each match's document, so only the newest HELP_RANK_CANDIDATES word matches
  // are ranked: a word in half of 100k articles costs the same as one in a few hundred.
  const candidates = Math.max(HELP_RANK_CANDIDATES, pageEnd);
  // Substring-only matches are looked for only when the word matches do not fill the page (a
  // one-time filter: otherwise those scans never run).
  const substringOnly = useSubstring
    ? Prisma.sql`
      UNION ALL
      SELECT t."id", false FROM (${branch(titleContains, pageEnd)} UNION ${branch(contentContains, pageEnd)}) t
      WHERE (SELECT count(*) FROM words) < ${pageEnd} AND t."id" NOT IN (SELECT w."id" FROM words w)`
    : Prisma.empty;
  return Prisma.sql`
    WITH words AS MATERIALIZED ${branch(Prisma.sql`${document} @@ ${tsquery}`, candidates)},
    hits AS (
      SELECT w."id", true AS "wordMatch" FROM words w
      ${substringOnly}
    )
    SELECT ${columns}, CASE WHEN h."wordMatch" THEN ts_rank(${document}, ${tsquery}, 1) ELSE 0 END::float8 AS "rank"
    FROM hits h
    JOIN "Article" a ON a."id" = h."id"
    JOIN "Source" s ON s."id" = a."sourceId"
    ORDER BY h."wordMatch" DESC, "rank" DESC, ${useSubstring ? Prisma.sql`(${titleContains}) DESC,` : Prisma.empty} a."updatedAt" DESC, a."id"
    LIMIT ${options.limit} OFFSET ${options.offset}`;
}

/** `value` as a literal LIKE pattern: its wildcards and the escape character match themselves. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function positiveInt(value: number, name: string, min = 1): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}`);
  return value;
}
