// The help centre's search (its search page and `GET .../help/articles?q=`): articles ranked by the
// knowledge agent's own analysis of the query (agent-index.ts, rank.ts searchRanking: stems, typo
// corrections, synonyms, any word may match, best first), so that a visitor's natural question
// finds the article the agent would answer from. The index holds the agent's visible articles
// only; the page's rows are read again through the visibility rule, so an article hidden since
// the index was checked never shows. The database's full-text search (database-search.ts) answers
// instead when the index does not hold every visible article (over its memory budget, or over the
// newest KNOWLEDGE_INDEX_MAX_ARTICLES) and when no indexed word matches: every word or the query
// as part of a word ("ccountan", codes) first, else the closest matches (databaseSearch below).
import { type Database, Prisma } from "@parley/db";
import { articleLanguageSql, type Language } from "../languages/detection.ts";
import { HELP_CLOSEST_MATCHES } from "../limits.ts";
import { articleIsVisibleSql } from "../visibility.ts";
import { agentIndex, type StoredArticle } from "./agent-index.ts";
import { wordsOf } from "./analyze.ts";
import { type ArticleHit, searchVisibleArticles } from "./database-search.ts";
import { type SearchRanking, searchRanking } from "./rank.ts";

export interface HelpSearchOptions {
  limit: number;
  /** Rows to skip. */
  offset?: number;
  /** Only articles of this source (collection). */
  sourceId?: string;
  /** Only articles in this language, set or detected (the help lists' language filter). */
  language?: Language;
  /**
   * "relevance" (default): best match first. "recent": the same matching articles, most recently
   * updated first (spec 4.3's order for the JSON list). A blank query lists every visible
   * article, most recently updated first, either way.
   */
  order?: "relevance" | "recent";
}

export interface HelpSearch {
  /** The page of matching articles, in the order asked. */
  articles: ArticleHit[];
  /**
   * The query with the words that matched only as a typo's correction replaced by it ("refnud
   * policy" as "refund policy"), for a "Did you mean"; null when no word was corrected.
   */
  correctedQuery: string | null;
  /**
   * Whether some matching article contains every word of the query (as written, corrected or by
   * a synonym). False: the articles are only the closest matches. True for a blank query.
   */
  everyWord: boolean;
}

/**
 * The help centre's articles for `query` (trimmed), visible for `agentId` only. The one search of
 * the help centre: its search page and the JSON route read it.
 */
export async function searchHelpCentre(db: Database, agentId: string, query: string, options: HelpSearchOptions): Promise<HelpSearch> {
  const q = query.trim();
  const order = options.order ?? "relevance";
  const page = { limit: options.limit, offset: options.offset, sourceId: options.sourceId, language: options.language };
  if (!q)
    return { articles: await searchVisibleArticles(db, agentId, "", { ...page, order: "recent" }), correctedQuery: null, everyWord: true };

  const held = await agentIndex(db, agentId);
  // Too large to hold in memory, or holding only the newest articles: the database searches them all.
  if ("overBudget" in held || !held.complete) return databaseSearch(db, agentId, q, options, order);

  const ranking = searchRanking(held.index, held.synonyms, q, options.language);
  const matches = ranking.articles.flatMap((match) => {
    const article = held.articles.get(match.articleId);
    if (!article) return [];
    if (options.sourceId !== undefined && article.sourceId !== options.sourceId) return [];
    if (options.language !== undefined && article.language !== options.language) return [];
    return [{ ...match, article }];
  });
  // No indexed word matches: the database's search finds a part of a word ("ccountan").
  if (matches.length === 0) return databaseSearch(db, agentId, q, options, order);

  // Best first; the articles holding every word, or else only the closest matches, when listed newest first.
  const everyWord = matches.filter((match) => (match.matched & ranking.allWords) === ranking.allWords);
  const newestFirst = (a: { article: StoredArticle }, b: { article: StoredArticle }) =>
    b.article.updatedAt.getTime() - a.article.updatedAt.getTime() || (a.article.id < b.article.id ? -1 : 1);
  const listed =
    order === "relevance" ? matches : (everyWord.length > 0 ? everyWord : matches.slice(0, HELP_CLOSEST_MATCHES)).sort(newestFirst);
  const offset = options.offset ?? 0;
  const pageMatches = listed.slice(offset, offset + options.limit);
  const rows = await readVisibleHits(
    db,
    agentId,
    pageMatches.map((match) => match.articleId),
    options,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const articles = pageMatches.flatMap((match) => {
    const row = byId.get(match.articleId);
    return row ? [{ ...row, rank: match.score }] : [];
  });
  return {
    articles,
    correctedQuery: correctedQueryOf(q, ranking),
    everyWord: everyWord.length > 0,
  };
}

/**
 * The database's full-text search, for help centres the index does not hold whole: the articles
 * holding every word or the query as part of a word, in the order asked; when there are none, the
 * closest matches (any word, ranked by how many match and how well: the best HELP_CLOSEST_MATCHES).
 */
async function databaseSearch(
  db: Database,
  agentId: string,
  query: string,
  options: HelpSearchOptions,
  order: "relevance" | "recent",
): Promise<HelpSearch> {
  const filters = { sourceId: options.sourceId, language: options.language };
  const holdsEveryWord =
    (await searchVisibleArticles(db, agentId, query, { ...filters, limit: 1, order: "recent", match: "all" })).length > 0;
  if (holdsEveryWord) {
    const page = { ...filters, limit: options.limit, offset: options.offset };
    return {
      articles: await searchVisibleArticles(db, agentId, query, { ...page, order, match: "all" }),
      correctedQuery: null,
      everyWord: true,
    };
  }
  const closest = await searchVisibleArticles(db, agentId, query, {
    ...filters,
    limit: HELP_CLOSEST_MATCHES,
    order: "relevance",
    match: "any",
  });
  if (order === "recent") closest.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1));
  const offset = options.offset ?? 0;
  return { articles: closest.slice(offset, offset + options.limit), correctedQuery: null, everyWord: false };
}

/** The page of articles alone (the help centre's lists; a blank query lists the newest). */
export async function searchHelpArticles(db: Database, agentId: string, query: string, options: HelpSearchOptions): Promise<ArticleHit[]> {
  return (await searchHelpCentre(db, agentId, query, options)).articles;
}

/**
 * The ids of the help centre's best articles for a question, best first (at most `limit`): what
 * its search page lists. For measuring the search (the eval).
 */
export async function rankHelpArticleIds(db: Database, agentId: string, question: string, limit = 50): Promise<string[]> {
  const { articles } = await searchHelpCentre(db, agentId, question, { limit, order: "relevance" });
  return articles.map((article) => article.id);
}

/** The visible articles among `ids`, with the list's filters (read again: the index may be a moment old). */
async function readVisibleHits(
  db: Database,
  agentId: string,
  ids: readonly string[],
  options: HelpSearchOptions,
): Promise<Omit<ArticleHit, "rank">[]> {
  if (ids.length === 0) return [];
  const source = options.sourceId === undefined ? Prisma.empty : Prisma.sql`AND a."sourceId" = ${options.sourceId}`;
  const language = options.language === undefined ? Prisma.empty : Prisma.sql`AND ${articleLanguageSql("a")} = ${options.language}`;
  return db.rows<Omit<ArticleHit, "rank">>(Prisma.sql`
    SELECT a."id", a."sourceId", s."name" AS "sourceName", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt"
    FROM "Article" a
    JOIN "Source" s ON s."id" = a."sourceId"
    WHERE a."id" IN (${Prisma.join(ids)}) AND ${articleIsVisibleSql("a", agentId)} ${source} ${language}`);
}

/** The query with its corrected words replaced (the rest as typed), or null when none was corrected. */
function correctedQueryOf(query: string, ranking: SearchRanking): string | null {
  if (ranking.corrections.length === 0) return null;
  const fixes = new Map(ranking.corrections.map((correction) => [correction.position, correction.corrected]));
  // Word positions count as analyze.ts wordsOf counts them; each run of letters, digits, marks and
  // apostrophes is one or more of its words.
  let position = 0;
  return query.replace(/[\p{L}\p{M}\p{N}'’`]+/gu, (run) => {
    const words = wordsOf(run);
    const first = position;
    position += words.length;
    if (!words.some((_, i) => fixes.has(first + i))) return run;
    return words.map((word, i) => fixes.get(first + i) ?? word).join(" ");
  });
}
