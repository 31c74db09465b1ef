// Reading help articles (spec 2.4, 2.5, 4.3, 4.4): the full article, and the article list with
// plain-text excerpts. Only visible articles (../knowledge/visibility.ts); anything else is null / absent.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { markdownToPlainText } from "../knowledge/articles/plain-text.ts";
import { articleLanguageOf, articleLanguageSql, type Language, loadLanguageDetector } from "../knowledge/languages/detection.ts";
import { HELP_QUERY_MAX_CHARS } from "../knowledge/limits.ts";
import { searchHelpArticles } from "../knowledge/search/help-search.ts";
import { articleIsVisibleSql } from "../knowledge/visibility.ts";
import { AppError } from "../platform/errors.ts";
import { charCount, storableString } from "../platform/text.ts";
import { excerpt } from "./excerpt.ts";
import { HELP_ARTICLES_PER_LIST, HELP_EXCERPT_CHARS } from "./limits.ts";
import { helpPaths } from "./urls.ts";

export interface HelpArticle {
  id: string;
  sourceId: string;
  sourceName: string;
  title: string;
  /** Stored Markdown. */
  content: string;
  updatedAt: Date;
}

/**
 * The article if it is visible for the agent, else null (unknown and hidden look the same).
 * Prepared: planning this statement cost PostgreSQL more than running it (npm run bench).
 */
export async function getVisibleArticle(db: Database, agentId: string, articleId: string): Promise<HelpArticle | null> {
  const [article] = await db.rows<HelpArticle>(visibleArticleSql(agentId, articleId), { prepared: true });
  return article ?? null;
}

/** A visible article of the help page, by slug (its address), with the slug. */
export interface HelpPageArticle extends HelpArticle {
  slug: string;
  /** The language it is written in (set by an admin, else detected): the page's `lang`. */
  language: Language;
}

/**
 * The help page's article: visible for the agent and with this slug, or null (unknown and hidden
 * look the same). Slugs are unique per source; when two of the agent's sources share one, the
 * source linked to the agent first wins.
 */
export async function getVisibleArticleBySlug(db: Database, agentId: string, slug: string): Promise<HelpPageArticle | null> {
  const [article] = await db.rows<Omit<HelpPageArticle, "language"> & { language: string | null }>(Prisma.sql`
    SELECT a."id", a."sourceId", s."name" AS "sourceName", a."title", a."slug", a."content", ${articleLanguageSql("a")} AS "language", a."updatedAt"
    FROM "Article" a
    JOIN "Source" s ON s."id" = a."sourceId"
    JOIN "AgentSource" l ON l."sourceId" = a."sourceId" AND l."agentId" = ${agentId}
    WHERE a."slug" = ${slug} AND ${articleIsVisibleSql("a", agentId)}
    ORDER BY l."createdAt", l."sourceId"
    LIMIT 1`);
  if (!article) return null;
  if (!article.language) await loadLanguageDetector();
  return { ...article, language: articleLanguageOf(article) };
}

/** The slug of a visible article found by id (the old id addresses redirect to it), or null. */
export async function getVisibleArticleSlug(db: Database, agentId: string, articleId: string): Promise<string | null> {
  const [row] = await db.rows<{ slug: string }>(Prisma.sql`
    SELECT a."slug" FROM "Article" a WHERE a."id" = ${articleId} AND ${articleIsVisibleSql("a", agentId)}`);
  return row?.slug ?? null;
}

/** What the help page at /help/{agent}/articles/{slugOrId} shows. */
export type HelpArticlePage = { article: HelpPageArticle } | { redirectTo: string } | { notFound: true };

/**
 * The article page's answer: the visible article with that slug; else, for the old address by id
 * of a visible article, a permanent redirect to its slug's address; else not found (unknown and
 * hidden alike).
 */
export async function resolveHelpArticlePage(db: Database, agentId: string, slugOrId: string): Promise<HelpArticlePage> {
  const article = await getVisibleArticleBySlug(db, agentId, slugOrId);
  if (article) return { article };
  const slug = await getVisibleArticleSlug(db, agentId, slugOrId);
  return slug ? { redirectTo: helpPaths.article(agentId, slug) } : { notFound: true };
}

/** The statement behind getVisibleArticle (exported so tests can EXPLAIN it). */
export function visibleArticleSql(agentId: string, articleId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT a."id", a."sourceId", s."name" AS "sourceName", a."title", a."content", a."updatedAt"
    FROM "Article" a
    JOIN "Source" s ON s."id" = a."sourceId"
    WHERE a."id" = ${articleId} AND ${articleIsVisibleSql("a", agentId)}`;
}

/** The article list's orders with a query (`sort`). */
export const HELP_ARTICLE_SORTS = ["recent", "relevance"] as const;

/** Query string of the article list: `q` (trimmed; blank is no filter), `source` and `sort`. */
export const articleListQuerySchema = z.object({
  // Text the database cannot store would fail in the query (a 500).
  q: storableString()
    .optional()
    .transform((value) => value?.trim() ?? "")
    .refine((value) => charCount(value) <= HELP_QUERY_MAX_CHARS, `must be at most ${HELP_QUERY_MAX_CHARS} characters`)
    // For the OpenAPI document (../openapi/document.ts); the length is checked after trimming.
    .meta({
      description: `Words or a question to find in titles and content (at most ${HELP_QUERY_MAX_CHARS} characters after trimming). Any of its words may match; word forms, common typos, synonyms, case and accents are allowed for. When no word matches, part of a word is looked for.`,
      maxLength: HELP_QUERY_MAX_CHARS,
      param: { example: "refund" },
    }),
  source: storableString()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .meta({ description: "Only articles of this collection (a source id from the collections list).", param: { example: "src-billing" } }),
  sort: z
    .enum(HELP_ARTICLE_SORTS, { error: `must be one of ${HELP_ARTICLE_SORTS.join(", ")}` })
    .default("recent")
    .meta({
      description:
        "The order of the articles matching `q`: `recent` (the default), most recently updated first; `relevance`, the best match first, as the help centre's search page lists them. Without `q`, most recently updated first either way. Blank is the default.",
    }),
});

export type ArticleListQuery = z.output<typeof articleListQuerySchema>;

/** Parses the list's search parameters; 400 `Invalid request` naming the field and rule otherwise. */
export function parseArticleListQuery(params: URLSearchParams): ArticleListQuery {
  const result = articleListQuerySchema.safeParse({
    q: params.get("q") ?? undefined,
    source: params.get("source") ?? undefined,
    // Blank is the default, as a blank `q` or `source` is no filter.
    sort: params.get("sort") || undefined,
  });
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`).join("; ");
  throw new AppError("INVALID_REQUEST", { details });
}

export interface ArticleSummary {
  id: string;
  sourceId: string;
  title: string;
  /** Plain text, about HELP_EXCERPT_CHARS long, around the match when there is a query. */
  excerpt: string;
}

/**
 * The JSON list (spec 4.3): at most 50 visible articles, most recently updated first; with `q`,
 * the articles the help centre's search finds (searchHelpCentre), most recently updated first,
 * or best match first with `sort=relevance`, as the search page lists them.
 */
export async function listArticleSummaries(db: Database, agentId: string, query: ArticleListQuery): Promise<ArticleSummary[]> {
  const hits = await searchHelpArticles(db, agentId, query.q, {
    limit: HELP_ARTICLES_PER_LIST,
    sourceId: query.source,
    order: query.sort,
  });
  return hits.map((hit) => ({
    id: hit.id,
    sourceId: hit.sourceId,
    title: hit.title,
    excerpt: excerpt(markdownToPlainText(hit.content), query.q, HELP_EXCERPT_CHARS),
  }));
}
