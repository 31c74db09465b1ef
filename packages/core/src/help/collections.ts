// Help collections (spec 2.3 and 4.2): the agent's visible sources that hold at least one visible
// article, with that number. Counted per source on the partial index of visible articles.
import { type Database, Prisma } from "@parley/db";
import type { LanguageCode as Language } from "../knowledge/languages/codes.ts";
import { articleLanguageSql } from "../knowledge/languages/detection.ts";
import { articleIsPublishedSql, visibleSourcesSql } from "../knowledge/visibility.ts";

export interface HelpCollection {
  /** The source id. */
  id: string;
  name: string;
  /** Visible (published, active) articles in the source (of the language, when filtered by one). */
  count: number;
}

/**
 * The statement behind listCollections / getCollection (exported so tests can EXPLAIN it). With a
 * language, only articles in it (set or detected) count, and collections without any are left out.
 */
export function collectionsSql(agentId: string, sourceId?: string, language?: Language): Prisma.Sql {
  const sourceFilter = sourceId === undefined ? Prisma.empty : Prisma.sql`AND s."id" = ${sourceId}`;
  const languageFilter = language === undefined ? Prisma.empty : Prisma.sql`AND ${articleLanguageSql("a")} = ${language}`;
  return Prisma.sql`
    SELECT s."id", s."name", c."count"
    FROM (${visibleSourcesSql(agentId)}) s
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS "count" FROM "Article" a WHERE a."sourceId" = s."id" AND ${articleIsPublishedSql("a")} ${languageFilter}
    ) c
    WHERE c."count" > 0 ${sourceFilter}
    ORDER BY s."name", s."id"`;
}

/** The agent's collections, by name. Empty for an unknown or inactive agent. Prepared, as the article read. */
export function listCollections(db: Database, agentId: string, language?: Language): Promise<HelpCollection[]> {
  return db.rows<HelpCollection>(collectionsSql(agentId, undefined, language), { prepared: true });
}

/** One collection of the agent, or null when it is not visible (or has no visible article). */
export async function getCollection(db: Database, agentId: string, sourceId: string, language?: Language): Promise<HelpCollection | null> {
  const [collection] = await db.rows<HelpCollection>(collectionsSql(agentId, sourceId, language), { prepared: true });
  return collection ?? null;
}
