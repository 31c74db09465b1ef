// Usage of a workspace's agents: this month's counters against each agent's limits, and a daily
// series of conversations started and tokens used (UTC days), with zero days included.
import type { Database } from "@parley/db";
import { z } from "zod";
import { rowId } from "../people/scope.ts";
import { USAGE_DAILY_MAX_DAYS } from "./limits.ts";
import { usageMonth } from "./quotas.ts";

export const dailyUsageInput = z
  .object({
    agentId: rowId.optional(),
    days: z.number().int().min(1).max(USAGE_DAILY_MAX_DAYS).default(30),
  })
  .default({ days: 30 });

export interface AgentMonthUsage {
  agentId: string;
  agentName: string;
  /** "YYYY-MM" (UTC). */
  month: string;
  conversations: number;
  tokens: number;
  turns: number;
  monthlyConversationLimit: number | null;
  monthlyTokenLimit: number | null;
  usageLimit: number | null;
  voiceEnabled: boolean;
  /** Minutes of visitor audio heard this month: the seconds counted, rounded up to whole minutes. */
  voiceMinutes: number;
  monthlyVoiceMinutesLimit: number | null;
}

export async function usageSummary(db: Database, workspaceId: string, now: Date): Promise<AgentMonthUsage[]> {
  const month = usageMonth(now);
  const agents = await db.prisma.agent.findMany({
    where: { workspaceId },
    select: {
      id: true,
      name: true,
      monthlyConversationLimit: true,
      monthlyTokenLimit: true,
      usageLimit: true,
      voiceEnabled: true,
      monthlyVoiceMinutesLimit: true,
      usage: { where: { month }, select: { conversations: true, tokens: true, turns: true, voiceSeconds: true } },
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return agents.map(({ id, name, usage, ...limits }) => ({
    agentId: id,
    agentName: name,
    month,
    conversations: usage[0]?.conversations ?? 0,
    tokens: usage[0]?.tokens ?? 0,
    turns: usage[0]?.turns ?? 0,
    voiceMinutes: Math.ceil((usage[0]?.voiceSeconds ?? 0) / 60),
    ...limits,
  }));
}

export interface DailyUsage {
  /** "YYYY-MM-DD" (UTC). */
  date: string;
  conversations: number;
  tokens: number;
}

/**
 * The last `days` UTC days up to today, oldest first: conversations created and tokens of messages
 * created that day, for one agent or all of the workspace (a foreign agent id counts nothing).
 */
export async function dailyUsage(
  db: Database,
  workspaceId: string,
  input: z.infer<typeof dailyUsageInput>,
  now: Date,
): Promise<DailyUsage[]> {
  const last = now.toISOString().slice(0, 10);
  const first = new Date(now.getTime() - (input.days - 1) * 86_400_000).toISOString().slice(0, 10);
  const agentId = input.agentId ?? null;
  // Timestamps are stored as UTC without a zone, so a ::date cast is the UTC day.
  const rows = await db.prisma.$queryRaw<Array<{ date: string; conversations: number; tokens: bigint | number }>>`
    WITH agents AS (
      SELECT "id" FROM "Agent"
      WHERE "workspaceId" = ${workspaceId} AND (${agentId}::text IS NULL OR "id" = ${agentId}::text)
    ),
    conversations AS (
      SELECT c."createdAt"::date AS day, count(*)::int AS n
      FROM "Conversation" c JOIN agents a ON a."id" = c."agentId"
      WHERE c."createdAt" >= ${first}::date AND c."createdAt" < ${last}::date + 1 AND NOT c."test"
      GROUP BY 1
    ),
    tokens AS (
      SELECT m."createdAt"::date AS day, sum(m."tokens")::bigint AS n
      FROM "Message" m
      JOIN "Conversation" c ON c."id" = m."conversationId"
      JOIN agents a ON a."id" = c."agentId"
      WHERE m."createdAt" >= ${first}::date AND m."createdAt" < ${last}::date + 1 AND NOT c."test"
      GROUP BY 1
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS "date",
           coalesce(conversations.n, 0) AS "conversations",
           coalesce(tokens.n, 0) AS "tokens"
    FROM (SELECT generate_series(${first}::date, ${last}::date, interval '1 day')::date AS day) d
    LEFT JOIN conversations ON conversations.day = d.day
    LEFT JOIN tokens ON tokens.day = d.day
    ORDER BY d.day`;
  return rows.map((row) => ({ date: row.date, conversations: Number(row.conversations), tokens: Number(row.tokens) }));
}
