// The panel's home: what needs a person now, how busy each agent was today and this week, the
// questions the knowledge base could not answer (the gaps page's own count), agents close to a monthly limit, and (until
// everything is set up) a getting-started checklist ticked from what is really stored.
// Every query is bounded by an index: escalations by (status, escalatedAt), the week's activity by
// the conversations updated this week (updatedAt index) and their messages (conversationId, sequence).
import type { Database } from "@parley/db";
import { findInQueueOrder } from "../conversations/inbox/queue.ts";
import { knowledgeGapCounts } from "../knowledge/gaps/gaps-page.ts";
import { assertCan } from "../people/permissions.ts";
import type { AdminScope } from "../people/scope.ts";
import { usageMonth } from "../usage/quotas.ts";
import { usageSummary } from "../usage/usage.ts";
import { HOME_NEAR_QUOTA_SHARE, HOME_WAITING_SHOWN } from "./limits.ts";

const DAY_MS = 86_400_000;
/** "This week": today and the six UTC days before it. */
const WEEK_DAYS = 7;

export interface WaitingEscalation {
  conversationId: string;
  agentName: string;
  visitorName: string | null;
  visitorEmail: string | null;
  firstPageUrl: string | null;
  escalatedAt: Date;
  /** Since when the visitor has waited for a person's reply; null when a person has answered. */
  waitingSince: Date | null;
}

export interface AgentActivity {
  agentId: string;
  agentName: string;
  today: { conversations: number; turns: number };
  week: { conversations: number; turns: number };
  /** Open questions of the last 7 days on the gaps page, this agent's (knowledgeGapCounts). */
  unanswered: number;
}

export type QuotaMeasure = "conversations" | "tokens" | "turns";

export interface NearQuota {
  agentId: string;
  agentName: string;
  measure: QuotaMeasure;
  used: number;
  limit: number;
}

export interface GettingStarted {
  keyGenerated: boolean;
  articlePublished: boolean;
  /** The widget connected from an allowed site other than this server's help centre (widget/site-seen.ts). */
  widgetEmbedded: boolean;
  webhookAdded: boolean;
  /** The agent the key and widget steps open: the oldest without a key, else the oldest; null without agents. */
  agentId: string | null;
}

/** The visitors' ratings of resolved conversations given or changed in the last seven days (UTC), by value. */
export interface RatingCounts {
  good: number;
  okay: number;
  bad: number;
}

export interface PanelHome {
  waiting: { count: number; oldest: WaitingEscalation[] };
  activity: AgentActivity[];
  ratingsThisWeek: RatingCounts;
  /** The gaps page's open questions of the last 7 days: the same query as the page's total. */
  unansweredThisWeek: number;
  nearQuota: NearQuota[];
  /** "YYYY-MM" (UTC), the month of nearQuota. */
  month: string;
  gettingStarted: GettingStarted;
}

export async function panelHome(db: Database, scope: AdminScope, now: Date): Promise<PanelHome> {
  assertCan(scope, "inbox.read");
  const [waiting, activity, ratingsThisWeek, gaps, nearQuota, gettingStarted] = await Promise.all([
    waitingForAPerson(db, scope.workspaceId),
    agentActivity(db, scope.workspaceId, now),
    weekRatings(db, scope.workspaceId, now),
    knowledgeGapCounts(db, scope.workspaceId, now),
    agentsNearQuota(db, scope.workspaceId, now),
    gettingStartedChecklist(db, scope.workspaceId),
  ]);
  return {
    waiting,
    activity: activity.map((agent) => ({ ...agent, unanswered: gaps.byAgent[agent.agentId]?.last7Days ?? 0 })),
    ratingsThisWeek,
    unansweredThisWeek: gaps.last7Days,
    nearQuota,
    month: usageMonth(now),
    gettingStarted,
  };
}

/** Escalated conversations nobody has taken, in the inbox's queue order (a few of them). */
async function waitingForAPerson(db: Database, workspaceId: string) {
  const where = { agent: { workspaceId }, status: "escalated" as const, assigneeId: null, test: false };
  const [count, rows] = await Promise.all([
    db.prisma.conversation.count({ where }),
    findInQueueOrder(
      (args) =>
        db.prisma.conversation.findMany({
          ...args,
          select: {
            id: true,
            escalatedAt: true,
            waitingSince: true,
            updatedAt: true,
            visitorName: true,
            visitorEmail: true,
            firstPageUrl: true,
            agent: { select: { name: true } },
          },
        }),
      where,
      null,
      HOME_WAITING_SHOWN,
    ),
  ]);
  const oldest = rows.map(({ id, agent, escalatedAt, updatedAt, ...visitor }) => ({
    conversationId: id,
    agentName: agent.name,
    ...visitor,
    escalatedAt: escalatedAt ?? updatedAt,
  }));
  return { count, oldest };
}

interface ActivityRow {
  agentId: string;
  agentName: string;
  todayConversations: number;
  weekConversations: number;
  todayTurns: number;
  weekTurns: number;
}

/** Timestamps are stored as UTC without a zone: compare with a zone-less UTC literal. */
function utcLiteral(date: Date): string {
  return date.toISOString().replace("Z", "");
}

/** The week's start, as the activity table counts it: today and the six UTC days before it. */
function weekStartOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (WEEK_DAYS - 1) * DAY_MS);
}

/** The ratings the workspace's visitors gave (or last changed) this week, by their updatedAt index. */
async function weekRatings(db: Database, workspaceId: string, now: Date): Promise<RatingCounts> {
  const rows = await db.prisma.$queryRaw<Array<{ rating: keyof RatingCounts; count: number }>>`
    SELECT r."rating"::text AS "rating", count(*)::int AS "count"
    FROM "ConversationRating" r
    JOIN "Conversation" c ON c."id" = r."conversationId"
    JOIN "Agent" a ON a."id" = c."agentId"
    WHERE r."updatedAt" >= ${utcLiteral(weekStartOf(now))}::timestamp AND a."workspaceId" = ${workspaceId} AND NOT c."test"
    GROUP BY 1`;
  const counts: RatingCounts = { good: 0, okay: 0, bad: 0 };
  for (const row of rows) counts[row.rating] = Number(row.count);
  return counts;
}

async function agentActivity(db: Database, workspaceId: string, now: Date): Promise<Omit<AgentActivity, "unanswered">[]> {
  const todayStart = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const weekStart = weekStartOf(now);
  const today = utcLiteral(todayStart);
  const week = utcLiteral(weekStart);
  const rows = await db.prisma.$queryRaw<ActivityRow[]>`
    WITH agents AS (
      SELECT "id", "name", "createdAt" FROM "Agent" WHERE "workspaceId" = ${workspaceId}
    ),
    recent AS (
      SELECT c."id", c."agentId", c."createdAt" FROM "Conversation" c
      WHERE c."agentId" IN (SELECT "id" FROM agents) AND c."updatedAt" >= ${week}::timestamp AND NOT c."test"
    ),
    conversations AS (
      SELECT "agentId",
             count(*) FILTER (WHERE "createdAt" >= ${today}::timestamp)::int AS today,
             count(*) FILTER (WHERE "createdAt" >= ${week}::timestamp)::int AS week
      FROM recent GROUP BY 1
    ),
    turns AS (
      SELECT r."agentId",
             count(*) FILTER (WHERE m."createdAt" >= ${today}::timestamp)::int AS today,
             count(*)::int AS week
      FROM recent r JOIN "Message" m ON m."conversationId" = r."id"
      WHERE m."role" = 'agent' AND m."createdAt" >= ${week}::timestamp
      GROUP BY 1
    )
    SELECT a."id" AS "agentId", a."name" AS "agentName",
           coalesce(c.today, 0) AS "todayConversations", coalesce(c.week, 0) AS "weekConversations",
           coalesce(t.today, 0) AS "todayTurns", coalesce(t.week, 0) AS "weekTurns"
    FROM agents a
    LEFT JOIN conversations c ON c."agentId" = a."id"
    LEFT JOIN turns t ON t."agentId" = a."id"
    ORDER BY a."createdAt", a."id"`;
  return rows.map((row) => ({
    agentId: row.agentId,
    agentName: row.agentName,
    today: { conversations: Number(row.todayConversations), turns: Number(row.todayTurns) },
    week: { conversations: Number(row.weekConversations), turns: Number(row.weekTurns) },
  }));
}

/** This month's counters at or past HOME_NEAR_QUOTA_SHARE of a limit, the fullest first. */
async function agentsNearQuota(db: Database, workspaceId: string, now: Date): Promise<NearQuota[]> {
  const near: NearQuota[] = [];
  for (const agent of await usageSummary(db, workspaceId, now)) {
    const measures: Array<[QuotaMeasure, number, number | null]> = [
      ["conversations", agent.conversations, agent.monthlyConversationLimit],
      ["tokens", agent.tokens, agent.monthlyTokenLimit],
      ["turns", agent.turns, agent.usageLimit],
    ];
    for (const [measure, count, limit] of measures) {
      if (limit !== null && count >= limit * HOME_NEAR_QUOTA_SHARE) {
        near.push({ agentId: agent.agentId, agentName: agent.agentName, measure, used: count, limit });
      }
    }
  }
  return near.sort((x, y) => share(y) - share(x));
}

function share(entry: NearQuota): number {
  return entry.limit === 0 ? Number.POSITIVE_INFINITY : entry.used / entry.limit;
}

/** Each step ticked from stored data: a key hash, a published article, the widget on another site, an endpoint. */
async function gettingStartedChecklist(db: Database, workspaceId: string): Promise<GettingStarted> {
  const oldest = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const [key, article, widget, webhook, withoutKey, first] = await Promise.all([
    db.prisma.agent.findFirst({ where: { workspaceId, keyHash: { not: null } }, select: { id: true } }),
    db.prisma.article.findFirst({
      where: { source: { workspaceId }, published: true, active: true },
      select: { id: true },
    }),
    db.prisma.agent.findFirst({ where: { workspaceId, widgetSiteSeenAt: { not: null } }, select: { id: true } }),
    db.prisma.webhookEndpoint.findFirst({ where: { workspaceId }, select: { id: true } }),
    db.prisma.agent.findFirst({ where: { workspaceId, keyHash: null }, select: { id: true }, orderBy: oldest }),
    db.prisma.agent.findFirst({ where: { workspaceId }, select: { id: true }, orderBy: oldest }),
  ]);
  return {
    keyGenerated: key !== null,
    articlePublished: article !== null,
    widgetEmbedded: widget !== null,
    webhookAdded: webhook !== null,
    agentId: (withoutKey ?? first)?.id ?? null,
  };
}
