// The panel's gaps page: the questions nobody answered (knowledge/gaps/gap-wording.ts records them), grouped by
// their wording key, with how often each came up in the last 7 and 30 days.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { rowId } from "../../people/scope.ts";
import { KNOWLEDGE_GAP_GROUPS_SHOWN } from "../limits.ts";
import type { KnowledgeGapKind } from "./gap-rows.ts";

const DAY_MS = 86_400_000;

export const listKnowledgeGapsInput = z.object({ agentId: rowId.optional() }).default({});

export interface KnowledgeGapGroup {
  /** The wording key shared by the group's questions (knowledge/gaps/gap-wording.ts gapKey). */
  wording: string;
  /** The group's latest question, as the visitor wrote it. */
  question: string;
  last7Days: number;
  last30Days: number;
  lastAskedAt: Date;
  kinds: Record<KnowledgeGapKind, number>;
}

interface GroupRow {
  wording: string;
  question: string;
  last7: number;
  last30: number;
  lastAt: Date;
  unanswered: number;
  handoff: number;
  notHelpful: number;
  noSearchResult: number;
}

/** Timestamps are stored as UTC without a zone: compare with a zone-less UTC literal. */
function utcLiteral(date: Date): string {
  return date.toISOString().replace("Z", "");
}

/** The workspace's gap groups of the last 30 days (one agent's when asked), most frequent first. */
export async function listKnowledgeGaps(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof listKnowledgeGapsInput>,
  now: Date,
): Promise<KnowledgeGapGroup[]> {
  const week = utcLiteral(new Date(now.getTime() - 7 * DAY_MS));
  const month = utcLiteral(new Date(now.getTime() - 30 * DAY_MS));
  const agentFilter = input.agentId ? Prisma.sql`AND g."agentId" = ${input.agentId}` : Prisma.empty;
  const rows = await db.rows<GroupRow>(Prisma.sql`
    SELECT g."normalized" AS "wording",
           (array_agg(g."question" ORDER BY g."createdAt" DESC))[1] AS "question",
           count(*) FILTER (WHERE g."createdAt" >= ${week}::timestamp)::int AS "last7",
           count(*)::int AS "last30",
           max(g."createdAt") AS "lastAt",
           count(*) FILTER (WHERE g."kind" = 'unanswered')::int AS "unanswered",
           count(*) FILTER (WHERE g."kind" = 'handoff')::int AS "handoff",
           count(*) FILTER (WHERE g."kind" = 'not_helpful')::int AS "notHelpful",
           count(*) FILTER (WHERE g."kind" = 'no_search_result')::int AS "noSearchResult"
    FROM "KnowledgeGap" g
    JOIN "Agent" a ON a."id" = g."agentId" AND a."workspaceId" = ${workspaceId}
    WHERE g."createdAt" >= ${month}::timestamp ${agentFilter}
    GROUP BY g."normalized"
    ORDER BY "last30" DESC, "lastAt" DESC
    LIMIT ${KNOWLEDGE_GAP_GROUPS_SHOWN}`);
  return rows.map((row) => ({
    wording: row.wording,
    question: row.question,
    last7Days: Number(row.last7),
    last30Days: Number(row.last30),
    lastAskedAt: new Date(row.lastAt),
    kinds: {
      unanswered: Number(row.unanswered),
      handoff: Number(row.handoff),
      not_helpful: Number(row.notHelpful),
      no_search_result: Number(row.noSearchResult),
    },
  }));
}

/** Visitors' votes on each of these articles: helpful ones and all. */
export async function articleScores(db: Database, articleIds: string[]): Promise<Map<string, { helpful: number; votes: number }>> {
  const scores = new Map<string, { helpful: number; votes: number }>();
  if (articleIds.length === 0) return scores;
  const groups = await db.prisma.articleFeedback.groupBy({
    by: ["articleId", "helpful"],
    where: { articleId: { in: articleIds } },
    _count: { _all: true },
  });
  for (const group of groups) {
    const score = scores.get(group.articleId) ?? { helpful: 0, votes: 0 };
    score.votes += group._count._all;
    if (group.helpful) score.helpful += group._count._all;
    scores.set(group.articleId, score);
  }
  return scores;
}
