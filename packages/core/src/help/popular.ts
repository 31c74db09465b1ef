// The articles a help centre offers when a search finds nothing: the most read. The one rule:
// the most views in the last POPULAR_VIEWS_DAYS days (ArticleViewDay), then the most views ever
// (Article.viewCount), then the most "Was this helpful?" yes votes (ArticleFeedback: one per
// visitor, article and day), then the most recently updated, the id breaking the last ties. A
// help centre nobody has read yet offers its newest articles.
import { type Database, Prisma } from "@parley/db";
import { articleLanguageSql } from "../knowledge/languages/detection.ts";
import type { ArticleHit } from "../knowledge/search/database-search.ts";
import { articleIsVisibleSql } from "../knowledge/visibility.ts";
import { HELP_POPULAR_ARTICLES } from "./limits.ts";
import { viewsSince } from "./views.ts";

/**
 * At most `limit` visible articles of the agent in the order above. Four short lists of candidates
 * (the most read lately, from the day buckets; the most read ever; the most voted; the newest,
 * from the update index), then that order over them, not a count for every article.
 */
export function listPopularArticles(
  db: Database,
  agentId: string,
  limit: number = HELP_POPULAR_ARTICLES,
  now: Date = new Date(),
): Promise<ArticleHit[]> {
  const since = viewsSince(now);
  return db.rows<ArticleHit>(Prisma.sql`
    WITH lately AS (
      SELECT d."articleId" AS "id"
      FROM "ArticleViewDay" d
      JOIN "Article" a ON a."id" = d."articleId"
      WHERE d."day" >= ${since}::date AND ${articleIsVisibleSql("a", agentId)}
      GROUP BY d."articleId"
      ORDER BY sum(d."views") DESC, max(a."viewCount") DESC, max(a."updatedAt") DESC, d."articleId"
      LIMIT ${limit}
    ), ever AS (
      SELECT a."id"
      FROM "Article" a
      WHERE a."viewCount" > 0 AND ${articleIsVisibleSql("a", agentId)}
      ORDER BY a."viewCount" DESC, a."updatedAt" DESC, a."id"
      LIMIT ${limit}
    ), voted AS (
      SELECT f."articleId" AS "id"
      FROM "ArticleFeedback" f
      JOIN "Article" a ON a."id" = f."articleId"
      WHERE f."helpful" AND ${articleIsVisibleSql("a", agentId)}
      GROUP BY f."articleId"
      ORDER BY count(*) DESC, max(a."updatedAt") DESC, f."articleId"
      LIMIT ${limit}
    ), newest AS (
      SELECT a."id"
      FROM "Article" a
      WHERE ${articleIsVisibleSql("a", agentId)}
      ORDER BY a."updatedAt" DESC, a."id"
      LIMIT ${limit}
    ), chosen AS (
      SELECT "id" FROM lately UNION SELECT "id" FROM ever UNION SELECT "id" FROM voted UNION SELECT "id" FROM newest
    ), scored AS (
      SELECT c."id",
        (SELECT coalesce(sum(d."views"), 0) FROM "ArticleViewDay" d WHERE d."articleId" = c."id" AND d."day" >= ${since}::date) AS "lately",
        (SELECT count(*) FROM "ArticleFeedback" f WHERE f."articleId" = c."id" AND f."helpful") AS "helpful"
      FROM chosen c
    )
    SELECT a."id", a."sourceId", s."name" AS "sourceName", a."title", a."slug", a."content",
      ${articleLanguageSql("a")} AS "language", a."updatedAt", 0::float8 AS "rank"
    FROM scored c
    JOIN "Article" a ON a."id" = c."id"
    JOIN "Source" s ON s."id" = a."sourceId"
    ORDER BY c."lately" DESC, a."viewCount" DESC, c."helpful" DESC, a."updatedAt" DESC, a."id"
    LIMIT ${limit}`);
}
