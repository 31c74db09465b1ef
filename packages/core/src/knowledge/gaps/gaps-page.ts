// The panel's gaps page: the questions nobody answered (gap-rows.ts records them), grouped when they
// ask the same thing, with how often each came up in the last 7 and 30 days; a person may dismiss a
// group. The page's totals and the panel home's count are one query (knowledgeGapCounts) over the
// same rows: the last 30 days' questions that nobody dismissed. A visitor asking for a person is
// not a gap in the knowledge base: handoff rows (recorded before this rule) are never counted.
import { type Database, Prisma } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { AppError } from "../../platform/errors.ts";
import { KNOWLEDGE_GAP_GROUPS_SHOWN, KNOWLEDGE_GAP_KEYS_READ, KNOWLEDGE_GAP_VARIANTS_SHOWN } from "../limits.ts";
import { fold, termsOf } from "../search/analyze.ts";
import { gapKey, type KnowledgeGapKind } from "./gap-rows.ts";

const DAY_MS = 86_400_000;

/** The kinds the page lists: every recorded kind but a request for a person. */
export type ListedGapKind = Exclude<KnowledgeGapKind, "handoff">;

export const listKnowledgeGapsInput = z.object({ agentId: rowId.optional() }).default({});

export const dismissKnowledgeGapInput = z.object({
  /** The group's wording key as the page listed it. */
  wording: z.string().trim().min(1).max(2000),
  /** The agent the page was filtered by: only that agent's questions are dismissed. */
  agentId: rowId.optional(),
});

export interface KnowledgeGapGroup {
  /** The group's key (its most asked wording, gap-rows.ts gapKey): what a dismissal names. */
  wording: string;
  /** The group's latest question, as the visitor wrote it. */
  question: string;
  /** Other wordings of the group (each one's latest question), most asked first. */
  variants: string[];
  last7Days: number;
  last30Days: number;
  lastAskedAt: Date;
  kinds: Record<ListedGapKind, number>;
}

export interface KnowledgeGapCounts {
  last7Days: number;
  last30Days: number;
  /** The same counts per agent (agents with none are absent). */
  byAgent: Record<string, { last7Days: number; last30Days: number }>;
}

interface KeyRow {
  wording: string;
  question: string;
  /** The wording's latest questions, newest first. */
  recent: string[];
  last7: number;
  last30: number;
  lastAt: Date;
  unanswered: number;
  notHelpful: number;
  noSearchResult: number;
}

/** Timestamps are stored as UTC without a zone: compare with a zone-less UTC literal. */
function utcLiteral(date: Date): string {
  return date.toISOString().replace("Z", "");
}

function windowOf(now: Date) {
  return { week: utcLiteral(new Date(now.getTime() - 7 * DAY_MS)), month: utcLiteral(new Date(now.getTime() - 30 * DAY_MS)) };
}

/** The open gaps of the workspace (one agent's when asked) of the last 30 days: the page's rows and the home's. */
function openGaps(workspaceId: string, agentId: string | undefined, month: string): Prisma.Sql {
  const agentFilter = agentId ? Prisma.sql`AND g."agentId" = ${agentId}` : Prisma.empty;
  return Prisma.sql`
    FROM "KnowledgeGap" g
    JOIN "Agent" a ON a."id" = g."agentId" AND a."workspaceId" = ${workspaceId}
    WHERE g."createdAt" >= ${month}::timestamp AND g."kind" <> 'handoff' AND g."dismissedAt" IS NULL ${agentFilter}`;
}

/** How many open questions the last 7 and 30 days hold: the gaps page's totals and the home page's figure. */
export async function knowledgeGapCounts(db: Database, workspaceId: string, now: Date, agentId?: string): Promise<KnowledgeGapCounts> {
  const { week, month } = windowOf(now);
  const rows = await db.rows<{ agentId: string; last7: number; last30: number }>(Prisma.sql`
    SELECT g."agentId" AS "agentId",
           count(*) FILTER (WHERE g."createdAt" >= ${week}::timestamp)::int AS "last7",
           count(*)::int AS "last30"
    ${openGaps(workspaceId, agentId, month)}
    GROUP BY g."agentId"`);
  const counts: KnowledgeGapCounts = { last7Days: 0, last30Days: 0, byAgent: {} };
  for (const row of rows) {
    const agent = { last7Days: Number(row.last7), last30Days: Number(row.last30) };
    counts.byAgent[row.agentId] = agent;
    counts.last7Days += agent.last7Days;
    counts.last30Days += agent.last30Days;
  }
  return counts;
}

/**
 * Keys under which two wordings are the same question: the stored key, the key of its latest
 * question under today's analysis, and its words analysed as English whatever language they
 * were detected as (a short question can read as German one day and English the next, and then
 * "Kubernetes helm charts" would not meet "kubernetes helm chart"). Word order, case, accents,
 * punctuation, stop words and plurals are already gone from each (search/analyze.ts).
 */
function sameQuestionKeys(row: KeyRow): string[] {
  const english = [...new Set(termsOf(row.question, "en"))].sort().join(" ");
  return [`k:${row.wording}`, `k:${gapKey(row.question)}`, english ? `en:${english}` : `f:${fold(row.question).trim()}`];
}

interface MergedGroup extends KnowledgeGapGroup {
  /** Every stored wording key of the group (what a dismissal updates). */
  keys: string[];
}

/** The open groups, near-duplicates merged, most asked first (all of them: the caller cuts). */
async function openGroups(db: Database, workspaceId: string, agentId: string | undefined, now: Date): Promise<MergedGroup[]> {
  const { week, month } = windowOf(now);
  const rows = await db.rows<KeyRow>(Prisma.sql`
    SELECT g."normalized" AS "wording",
           (array_agg(g."question" ORDER BY g."createdAt" DESC))[1] AS "question",
           (array_agg(g."question" ORDER BY g."createdAt" DESC))[1:${KNOWLEDGE_GAP_VARIANTS_SHOWN + 1}] AS "recent",
           count(*) FILTER (WHERE g."createdAt" >= ${week}::timestamp)::int AS "last7",
           count(*)::int AS "last30",
           max(g."createdAt") AS "lastAt",
           count(*) FILTER (WHERE g."kind" = 'unanswered')::int AS "unanswered",
           count(*) FILTER (WHERE g."kind" = 'not_helpful')::int AS "notHelpful",
           count(*) FILTER (WHERE g."kind" = 'no_search_result')::int AS "noSearchResult"
    ${openGaps(workspaceId, agentId, month)}
    GROUP BY g."normalized"
    ORDER BY "last30" DESC, "lastAt" DESC
    LIMIT ${KNOWLEDGE_GAP_KEYS_READ}`);

  // Union-find over the wordings: two meet when they share any of their same-question keys.
  const parent = rows.map((_, index) => index);
  const find = (index: number): number => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index] as number] as number;
      index = parent[index] as number;
    }
    return index;
  };
  const owner = new Map<string, number>();
  rows.forEach((row, index) => {
    for (const key of sameQuestionKeys(row)) {
      const other = owner.get(key);
      if (other === undefined) owner.set(key, index);
      else parent[find(index)] = find(other);
    }
  });

  const members = new Map<number, KeyRow[]>();
  rows.forEach((row, index) => {
    const root = find(index);
    members.set(root, [...(members.get(root) ?? []), row]);
  });
  const groups = [...members.values()].map((group): MergedGroup => {
    // Rows come most asked first: the first names the group; the latest question speaks for it.
    const latest = group.reduce((best, row) => (new Date(row.lastAt) > new Date(best.lastAt) ? row : best));
    const sum = (pick: (row: KeyRow) => number) => group.reduce((total, row) => total + Number(pick(row)), 0);
    return {
      wording: (group[0] as KeyRow).wording,
      keys: group.map((row) => row.wording),
      question: latest.question,
      variants: variantsOf(group, latest.question),
      last7Days: sum((row) => row.last7),
      last30Days: sum((row) => row.last30),
      lastAskedAt: new Date(latest.lastAt),
      kinds: {
        unanswered: sum((row) => row.unanswered),
        not_helpful: sum((row) => row.notHelpful),
        no_search_result: sum((row) => row.noSearchResult),
      },
    };
  });
  return groups.sort((x, y) => y.last30Days - x.last30Days || y.lastAskedAt.getTime() - x.lastAskedAt.getTime());
}

/** The group's other wordings as visitors wrote them, the latest first (each at most once). */
function variantsOf(group: KeyRow[], question: string): string[] {
  const asked = group.flatMap((row) => row.recent.map((text, index) => ({ text, order: index, lastAt: new Date(row.lastAt).getTime() })));
  // Within a wording the array is newest first; across wordings, the wording asked last first.
  asked.sort((x, y) => y.lastAt - x.lastAt || x.order - y.order);
  const variants = [...new Set(asked.map((entry) => entry.text))].filter((text) => text !== question);
  return variants.slice(0, KNOWLEDGE_GAP_VARIANTS_SHOWN);
}

/** The workspace's open gap groups of the last 30 days (one agent's when asked), most frequent first, with the totals. */
export async function listKnowledgeGaps(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof listKnowledgeGapsInput>,
  now: Date,
): Promise<{ groups: KnowledgeGapGroup[]; counts: Omit<KnowledgeGapCounts, "byAgent"> }> {
  const [groups, counts] = await Promise.all([
    openGroups(db, workspaceId, input.agentId, now),
    knowledgeGapCounts(db, workspaceId, now, input.agentId),
  ]);
  return {
    groups: groups.slice(0, KNOWLEDGE_GAP_GROUPS_SHOWN).map(({ keys: _keys, ...group }) => group),
    counts: { last7Days: counts.last7Days, last30Days: counts.last30Days },
  };
}

/**
 * Dismisses a group as the page shows it (its near-duplicates too): its open questions asked up to
 * now leave the page and the home count; a question asked again later is listed anew. One audit
 * event counts the questions but never quotes them: they are a visitor's words, which an erasure of
 * the visitor's data must not leave behind. 404 "Not found" when no open group has the wording.
 */
export async function dismissKnowledgeGap(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof dismissKnowledgeGapInput>,
  now: Date,
): Promise<{ dismissed: number }> {
  const group = (await openGroups(db, scope.workspaceId, input.agentId, now)).find((candidate) => candidate.keys.includes(input.wording));
  if (!group) throw new AppError("NOT_FOUND");
  const where = {
    agent: { workspaceId: scope.workspaceId },
    ...(input.agentId ? { agentId: input.agentId } : {}),
    normalized: { in: group.keys },
    kind: { not: "handoff" as const },
    dismissedAt: null,
    // The questions the page counted: the last 30 days' up to now.
    createdAt: { gte: new Date(now.getTime() - 30 * DAY_MS), lte: now },
  };
  return db.prisma.$transaction(async (tx) => {
    const latest = await tx.knowledgeGap.findFirst({ where, orderBy: { createdAt: "desc" }, select: { id: true } });
    const { count } = await tx.knowledgeGap.updateMany({ where, data: { dismissedAt: now } });
    await recordAudit(tx, scope, {
      action: "knowledgeGap.dismissed",
      targetType: "knowledgeGap",
      targetId: latest?.id ?? "",
      targetLabel: `a group of ${count} unanswered ${count === 1 ? "question" : "questions"}`,
      detail: { questions: count, ...(input.agentId ? { agentId: input.agentId } : {}) },
    });
    return { dismissed: count };
  });
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
