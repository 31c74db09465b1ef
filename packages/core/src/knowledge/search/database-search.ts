// Article search in the database over visible articles only (../knowledge/visibility.ts): the help
// centre's lists without a query, and its search where the in-process index is not used
// (help-search.ts); searchVisibleArticles takes "recent" or "relevance" explicitly. Matching is Postgres full-text search (words, stemmed, title weighted above
// content) OR a trigram-indexed substring match, both case- and accent-insensitive, against the
// columns the database generates from title and content ("searchDocument", "searchTitle",
// "searchContent"), one UNION branch per GIN index. Lists without a query read the partial index
// "Article_visible_recent_idx" per visible source (top N each) and merge: a few index entries per
// source instead of sorting every visible article. Every statement is built
// with Prisma.sql, so user input only ever travels as a bound parameter.
import { type Database, Prisma } from "@parley/db";
import type { LanguageCode as Language } from "../languages/codes.ts";
import { articleLanguageSql } from "../languages/detection.ts";
import { HELP_RANK_CANDIDATES } from "../limits.ts";
import { articleIsPublishedSql, visibleSourcesSql } from "../visibility.ts";

export interface ArticleHit {
  id: string;
  sourceId: string;
  sourceName: string;
  title: string;
  /** The help page's address part (helpPaths.article). */
  slug: string;
  /** Stored Markdown. */
  content: string;
  /** The language an admin set, else the one detected (en, es, fr, de, pt); null: not detected yet. */
  language: string | null;
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
  /** Only articles in this language, set or detected (the help lists' language filter). */
  language?: Language;
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
 * A search looks at the newest visible articles first: a window of SEARCH_WINDOW_FACTORS[0] times
 * the rows it needs (the page, or the candidates to rank), then a wider one, then all of them,
 * until the window holds the whole answer. A window is "updated since" a time, and the GIN
 * indexes lead with "updatedAt", so a window's matches are found without reading older ones: a
 * common word costs the same in 1k or 100k articles, and a rare one has few matches to read.
 */
const SEARCH_WINDOW_FACTORS = [40, 400] as const;

/**
 * Visible articles of `agentId` matching `query` (trimmed; blank lists every visible article).
 * "recent": most recently updated first. "relevance": word matches by full-text rank (the newest
 * HELP_RANK_CANDIDATES of them are ranked), then substring-only matches (title before content),
 * recency breaking ties. The id breaks the last ties, so the order is total.
 */
export async function searchVisibleArticles(db: Database, agentId: string, query: string, options: SearchOptions): Promise<ArticleHit[]> {
  if (query.trim()) {
    for (const factor of SEARCH_WINDOW_FACTORS) {
      // A window's start is read only when the narrower window fell short.
      const start = await searchWindowStart(db, agentId, options, factor);
      if (start === null) break; // This window would hold every visible article.
      const rows = await db.rows<WindowRow>(searchVisibleArticlesSql(agentId, query, options, start));
      if (rows[0]?.complete) return hitsOf(rows);
    }
  }
  // The list without a query has a few fixed shapes, planned alike for every agent: prepared. A
  // search is planned for its words and window each time.
  return hitsOf(await db.rows<WindowRow>(searchVisibleArticlesSql(agentId, query, options, null), { prepared: !query.trim() }));
}

type WindowRow = ArticleHit & { complete?: boolean };

/** The hits of a window's rows (no row of nulls, no window column). */
function hitsOf(rows: WindowRow[]): ArticleHit[] {
  return rows
    .filter((row) => row.id !== null)
    .map(({ id, sourceId, sourceName, title, slug, content, language, updatedAt, rank }) => ({
      id,
      sourceId,
      sourceName,
      title,
      slug,
      content,
      language,
      updatedAt,
      rank,
    }));
}

/**
 * The statement searchVisibleArticles runs for one window (exported so tests can EXPLAIN it):
 * the articles updated since `windowStart`, or all of them when null.
 */
export function searchVisibleArticlesSql(
  agentId: string,
  query: string,
  options: SearchOptions,
  windowStart: Date | null = null,
): Prisma.Sql {
  const page = pageOf(options);
  const q = query.trim();
  if (!q) return recentArticlesSql(agentId, { ...page, sourceId: options.sourceId, language: options.language });
  return matchingArticlesSql(
    agentId,
    q,
    { ...page, sourceId: options.sourceId, language: options.language, order: options.order, match: options.match },
    windowStart,
  );
}

/**
 * The start of the search window of `factor` times the rows needed, or null when that window
 * would hold every visible article. A window of n articles starts at the latest of each visible
 * source's k-th newest update time, k = n / (visible sources): one index probe per source, and the
 * window holds at least k and at most n articles.
 */
export async function searchWindowStart(
  db: Database,
  agentId: string,
  options: SearchOptions,
  factor: number = SEARCH_WINDOW_FACTORS[0],
): Promise<Date | null> {
  const { limit, offset } = pageOf(options);
  const needed = options.order === "relevance" ? Math.max(HELP_RANK_CANDIDATES, offset + limit) : offset + limit;
  const sourceFilter = options.sourceId === undefined ? Prisma.empty : Prisma.sql`WHERE v."id" = ${options.sourceId}`;
  const [row] = await db.rows<{ start: Date | null }>(Prisma.sql`
    WITH vs AS MATERIALIZED (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v ${sourceFilter})
    SELECT max(nth."updatedAt") AS "start"
    FROM vs CROSS JOIN LATERAL (
      SELECT a."updatedAt" FROM "Article" a
      WHERE a."sourceId" = vs."id" AND ${articleIsPublishedSql("a")}
      ORDER BY a."updatedAt" DESC, a."id"
      OFFSET (SELECT ceil(${factor * needed}::float8 / count(*))::int - 1 FROM vs) LIMIT 1
    ) nth`);
  return row?.start ?? null;
}

function pageOf(options: SearchOptions): { limit: number; offset: number } {
  return {
    limit: positiveInt(options.limit, "limit"),
    offset: options.offset === undefined ? 0 : positiveInt(options.offset, "offset", 0),
  };
}

export interface ArticleDate {
  id: string;
  sourceId: string;
  slug: string;
  updatedAt: Date;
}

/** Ids and update times of visible articles, most recent first (sitemaps). */
export function listVisibleArticleDates(db: Database, agentId: string, limit: number): Promise<ArticleDate[]> {
  return db.rows<ArticleDate>(visibleArticleDatesSql(agentId, limit));
}

export function visibleArticleDatesSql(agentId: string, limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."sourceId", (SELECT a."slug" FROM "Article" a WHERE a."id" = r."id") AS "slug", r."updatedAt"
    FROM (${recentVisibleSql(agentId, { limit: positiveInt(limit, "limit"), offset: 0 })}) r
    ORDER BY r."updatedAt" DESC, r."id"`;
}

/**
 * The newest visible articles (id, source, update time), ordered: top `offset + limit` of each
 * visible source from the partial index, merged, then the page cut out.
 */
function recentVisibleSql(agentId: string, page: RecentPage): Prisma.Sql {
  const perSource = page.offset + page.limit;
  const sourceFilter = page.sourceId === undefined ? Prisma.empty : Prisma.sql`WHERE s."id" = ${page.sourceId}`;
  return Prisma.sql`
    SELECT top."id", s."id" AS "sourceId", s."name" AS "sourceName", top."updatedAt"
    FROM (${visibleSourcesSql(agentId)}) s
    CROSS JOIN LATERAL (
      SELECT a."id", a."updatedAt"
      FROM "Article" a
      WHERE a."sourceId" = s."id" AND ${articleIsPublishedSql("a")} ${languageFilterSql(page.language)}
      ORDER BY a."updatedAt" DESC, a."id"
      LIMIT ${perSource}
    ) top
    ${sourceFilter}
    ORDER BY top."updatedAt" DESC, top."id"
    LIMIT ${page.limit} OFFSET ${page.offset}`;
}

interface RecentPage {
  limit: number;
  offset: number;
  sourceId?: string;
  language?: Language;
}

/** `AND` the article `a` is in `language`, set or detected (nothing without one). */
function languageFilterSql(language: Language | undefined): Prisma.Sql {
  return language === undefined ? Prisma.empty : Prisma.sql`AND ${articleLanguageSql("a")} = ${language}`;
}

function recentArticlesSql(agentId: string, page: RecentPage): Prisma.Sql {
  // Content is read for the final page only, by primary key.
  return Prisma.sql`
    SELECT a."id", a."sourceId", r."sourceName", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt", 0::float8 AS "rank"
    FROM (${recentVisibleSql(agentId, page)}) r
    JOIN "Article" a ON a."id" = r."id"
    ORDER BY r."updatedAt" DESC, r."id"`;
}

interface MatchOptions {
  limit: number;
  offset: number;
  sourceId?: string;
  language?: Language;
  order: "relevance" | "recent";
  match?: "all" | "any";
}

/**
 * One window of a search (see SEARCH_WINDOW_FACTORS): the page, each row with "complete", true
 * when the window held the whole answer. With no match at all, one row of nulls carries it.
 * The start is a bound parameter, so the planner sees how small the window is.
 */
function matchingArticlesSql(agentId: string, q: string, options: MatchOptions, windowStart: Date | null): Prisma.Sql {
  const tsquery =
    options.match === "any"
      ? // The query's lexemes (stemmed, stop words dropped) joined with OR instead of AND.
        Prisma.sql`replace(plainto_tsquery('english', parley_unaccent(${q}))::text, ' & ', ' | ')::tsquery`
      : Prisma.sql`websearch_to_tsquery('english', parley_unaccent(${q}))`;
  const wordMatch = Prisma.sql`a."searchDocument" @@ ${tsquery}`;
  const useSubstring = options.match !== "any" && [...q].length >= SUBSTRING_MIN_CHARS;
  const pattern = Prisma.sql`'%' || ${likeLiteralSql(Prisma.sql`parley_search_text(${q})`)} || '%'`;
  const titleContains = Prisma.sql`a."searchTitle" LIKE ${pattern}`;
  const contentContains = Prisma.sql`a."searchContent" LIKE ${pattern}`;
  const pageEnd = options.offset + options.limit;
  const sourceFilter = options.sourceId === undefined ? Prisma.empty : Prisma.sql`WHERE v."id" = ${options.sourceId}`;

  // One branch per GIN index, each the newest `n` visible rows matching one condition, so each
  // bitmap scan re-checks only its own condition. In a bounded window the index also takes the
  // time range, and only the window's matches are read from the table.
  const inWindow = windowStart === null ? Prisma.empty : Prisma.sql`AND a."updatedAt" >= ${windowStart}`;
  const branch = (condition: Prisma.Sql, n: number) => Prisma.sql`(
    SELECT a."id", a."updatedAt" FROM "Article" a
    WHERE ${articleIsPublishedSql("a")} AND a."sourceId" IN (SELECT vs."id" FROM vs) ${inWindow} ${languageFilterSql(options.language)}
      AND ${condition}
    ORDER BY a."updatedAt" DESC, a."id"
    LIMIT ${n})`;
  // The newest `n` rows matching any of `conditions`, within the window.
  const matches = (conditions: Prisma.Sql[], n: number) =>
    Prisma.sql`SELECT u."id", u."updatedAt" FROM (${Prisma.join(
      conditions.map((condition) => branch(condition, n)),
      " UNION ",
    )}) u`;
  const columns = Prisma.sql`a."id", a."sourceId", s."name" AS "sourceName", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt"`;
  const scope = Prisma.sql`vs AS MATERIALIZED (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v ${sourceFilter})`;
  // Whether the window held the whole answer: it holds every article, or enough matches.
  const complete = (found: Prisma.Sql, wanted: number) =>
    windowStart === null ? Prisma.sql`true AS "complete"` : Prisma.sql`(${found}) >= ${wanted} AS "complete"`;

  if (options.order === "recent") {
    // The page's rows are the newest of the union; only they are read in full. No rank: nothing
    // orders by it, and it would read the full-text document of every row of the page.
    const conditions = useSubstring ? [wordMatch, titleContains, contentContains] : [wordMatch];
    return Prisma.sql`
      WITH ${scope},
      m AS MATERIALIZED (
        SELECT n."id", n."updatedAt" FROM (${matches(conditions, pageEnd)}) n
        ORDER BY n."updatedAt" DESC, n."id"
        LIMIT ${pageEnd})
      SELECT c."complete", p.* FROM (SELECT ${complete(Prisma.sql`SELECT count(*) FROM m`, pageEnd)}) c
      LEFT JOIN LATERAL (
        SELECT ${columns}, 0::float8 AS "rank"
        FROM (SELECT m."id", m."updatedAt" FROM m ORDER BY m."updatedAt" DESC, m."id" LIMIT ${options.limit} OFFSET ${options.offset}) page
        JOIN "Article" a ON a."id" = page."id"
        JOIN "Source" s ON s."id" = a."sourceId"
      ) p ON true
      ORDER BY p."updatedAt" DESC, p."id"`;
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
      SELECT t."id", false FROM (${matches([titleContains, contentContains], pageEnd)}) t
      WHERE (SELECT count(*) FROM words) < ${pageEnd} AND t."id" NOT IN (SELECT w."id" FROM words w)`
    : Prisma.empty;
  return Prisma.sql`
    WITH ${scope},
    words AS MATERIALIZED (${matches([wordMatch], candidates)}),
    hits AS (
      SELECT w."id", true AS "wordMatch" FROM words w
      ${substringOnly}
    )
    SELECT c."complete", p.* FROM (SELECT ${complete(Prisma.sql`SELECT count(*) FROM words`, candidates)}) c
    LEFT JOIN LATERAL (
      SELECT ${columns}, CASE WHEN h."wordMatch" THEN ts_rank(a."searchDocument", ${tsquery}, 1) ELSE 0 END::float8 AS "rank",
             h."wordMatch", ${useSubstring ? titleContains : Prisma.sql`false`} AS "titleMatch"
      FROM hits h
      JOIN "Article" a ON a."id" = h."id"
      JOIN "Source" s ON s."id" = a."sourceId"
      ORDER BY h."wordMatch" DESC, "rank" DESC, "titleMatch" DESC, a."updatedAt" DESC, a."id"
      LIMIT ${options.limit} OFFSET ${options.offset}
    ) p ON true
    ORDER BY p."wordMatch" DESC, p."rank" DESC, p."titleMatch" DESC, p."updatedAt" DESC, p."id"`;
}

/**
 * `text` as a literal LIKE pattern: its wildcards and the escape character match themselves.
 * Applied to the folded query, since folding makes wildcards of other characters (fullwidth ％,
 * ＿, ＼ and their compatibility forms).
 */
function likeLiteralSql(text: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`replace(replace(replace(${text}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
}

function positiveInt(value: number, name: string, min = 1): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}`);
  return value;
}
