// The help centre's one visibility rule (spec 3 and 4.5.1). An article is visible for agent A iff
// A exists and is active, the article is published and active, and its source is active and
// linked to A (AgentSource). Every help read (JSON routes, pages, sitemap, the agents' knowledge
// search) builds its SQL from these fragments, so the rule is written once.
import { type Database, Prisma } from "@parley/db";

/**
 * The sources whose articles agent `agentId` may show: linked to the agent, active, and only while
 * the agent is active. Columns: `id`, `name`. Use it as a derived table or in `IN (...)`.
 */
export function visibleSourcesSql(agentId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT vs."id", vs."name"
    FROM "AgentSource" vl
    JOIN "Agent" va ON va."id" = vl."agentId" AND va."active"
    JOIN "Source" vs ON vs."id" = vl."sourceId" AND vs."active"
    WHERE vl."agentId" = ${agentId}`;
}

/**
 * The article half of the rule for an "Article" row aliased `alias`, written exactly as the
 * predicate of the partial index "Article_visible_recent_idx" so the planner can use that index.
 */
export function articleIsPublishedSql(alias: string): Prisma.Sql {
  return Prisma.sql`${column(alias, "published")} AND ${column(alias, "active")}`;
}

/** The whole rule for an "Article" row aliased `alias`: published, active, in a visible source. */
export function articleIsVisibleSql(alias: string, agentId: string): Prisma.Sql {
  return Prisma.sql`(${articleIsPublishedSql(alias)} AND ${column(alias, "sourceId")} IN (SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v))`;
}

export interface HelpAgent {
  id: string;
  name: string;
}

/** The agent half of the rule: the agent whose help centre exists (it exists and is active), or null. */
export function findHelpAgent(db: Database, agentId: string): Promise<HelpAgent | null> {
  return db.prisma.agent.findFirst({ where: { id: agentId, active: true }, select: { id: true, name: true } });
}

function column(alias: string, name: string): Prisma.Sql {
  for (const part of [alias, name]) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) throw new Error(`Not an SQL identifier: ${part}`);
  }
  return Prisma.raw(`"${alias}"."${name}"`);
}
