// The articles a help centre offers when a search finds nothing: the most read. Article views are
// not recorded; the readers' "Was this helpful?" votes are (ArticleFeedback: one per visitor,
// article and day), so the most read are those with the most "helpful" votes, then the most
// recently updated (a help centre with no votes yet offers its newest articles).
import { type Database, Prisma } from "@parley/db";
import { articleLanguageSql } from "../knowledge/languages/detection.ts";
import type { ArticleHit } from "../knowledge/search/database-search.ts";
import { articleIsVisibleSql } from "../knowledge/visibility.ts";
import { HELP_POPULAR_ARTICLES } from "./limits.ts";

/**
 * At most `limit` visible articles of the agent: the most voted helpful first, then the newest;
 * the id breaks the last ties. Two short lists (the voted ones, from the votes; the newest, from
 * the update index), not a count for every article.
 */
export function listPopularArticles(db: Database, agentId: string, limit: number = HELP_POPULAR_ARTICLES): Promise<ArticleHit[]> {
  return db.rows<ArticleHit>(Prisma.sql`
    WITH voted AS (
      SELECT f."articleId" AS "id", count(*) AS "helpful"
      FROM "ArticleFeedback" f
      JOIN "Article" a ON a."id" = f."articleId"
      WHERE f."helpful" AND ${articleIsVisibleSql("a", agentId)}
      GROUP BY f."articleId"
      ORDER BY "helpful" DESC, max(a."updatedAt") DESC, f."articleId"
      LIMIT ${limit}
    ), newest AS (
      SELECT a."id", 0::bigint AS "helpful"
      FROM "Article" a
      WHERE ${articleIsVisibleSql("a", agentId)}
      ORDER BY a."updatedAt" DESC, a."id"
      LIMIT ${limit}
    ), chosen AS (
      SELECT * FROM voted
      UNION ALL
      SELECT * FROM newest WHERE "id" NOT IN (SELECT "id" FROM voted)
    )
    SELECT a."id", a."sourceId", s."name" AS "sourceName", a."title", a."slug", a."content",
      ${articleLanguageSql("a")} AS "language", a."updatedAt", 0::float8 AS "rank"
    FROM chosen c
    JOIN "Article" a ON a."id" = c."id"
    JOIN "Source" s ON s."id" = a."sourceId"
    ORDER BY c."helpful" DESC, a."updatedAt" DESC, a."id"
    LIMIT ${limit}`);
}
