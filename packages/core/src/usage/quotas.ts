// Monthly quotas (spec 7, 8): conversations, text tokens and the usage limit (agent turns), per
// agent and calendar month (UTC), counted in "UsageMonth". The widget channel shares them, and an
// admin may cap its part (its own conversations and tokens, counted in the same row). A cheap check
// before the engine runs gives an early 402; the binding decision is a conditional UPDATE inside
// the turn's transaction, so of many concurrent turns competing for the last unit exactly one gets it.
import { type Database, Prisma } from "@parley/db";
import type { MessagingAgent } from "../agents/keys/message-auth.ts";
import { AppError } from "../platform/errors.ts";
import { USAGE_ERRORS } from "./errors.ts";

type QuotaErrorCode = keyof typeof USAGE_ERRORS;

type Limits = Pick<
  MessagingAgent,
  "monthlyConversationLimit" | "monthlyTokenLimit" | "usageLimit" | "widgetMonthlyConversationLimit" | "widgetMonthlyTokenLimit"
>;
type Channel = "api" | "widget";
type Sql = Pick<Database["prisma"], "$queryRaw" | "$executeRaw">;

export interface Usage {
  conversations: number;
  tokens: number;
  turns: number;
  /** The widget channel's part of conversations and tokens. */
  widgetConversations: number;
  widgetTokens: number;
}

/** The usage month of a moment: "YYYY-MM" in UTC. */
export function usageMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/**
 * Which quota a turn would exceed, or null. Tokens are known only after the turn, so a turn may
 * start while any token is left and the month's total may end a little above the limit.
 */
export function exhaustedQuota(limits: Limits, usage: Usage, startsConversation: boolean, channel: Channel = "api"): QuotaErrorCode | null {
  const widget = channel === "widget";
  if (startsConversation && isReached(usage.conversations, limits.monthlyConversationLimit)) return "CONVERSATION_QUOTA_EXHAUSTED";
  if (widget && startsConversation && isReached(usage.widgetConversations, limits.widgetMonthlyConversationLimit)) {
    return "CONVERSATION_QUOTA_EXHAUSTED";
  }
  if (isReached(usage.tokens, limits.monthlyTokenLimit)) return "TOKEN_QUOTA_EXHAUSTED";
  if (widget && isReached(usage.widgetTokens, limits.widgetMonthlyTokenLimit)) return "TOKEN_QUOTA_EXHAUSTED";
  if (isReached(usage.turns, limits.usageLimit)) return "USAGE_LIMIT_REACHED";
  return null;
}

function isReached(used: number, limit: number | null): boolean {
  return limit !== null && used >= limit;
}

function hasLimits(limits: Limits, channel: Channel): boolean {
  const widgetCaps = channel === "widget" && (limits.widgetMonthlyConversationLimit !== null || limits.widgetMonthlyTokenLimit !== null);
  return widgetCaps || limits.monthlyConversationLimit !== null || limits.monthlyTokenLimit !== null || limits.usageLimit !== null;
}

const NO_USAGE: Usage = { conversations: 0, tokens: 0, turns: 0, widgetConversations: 0, widgetTokens: 0 };
const USAGE_COLUMNS = Prisma.sql`"conversations", "tokens", "turns", "widgetConversations", "widgetTokens"`;

async function readUsage(sql: Sql, agentId: string, month: string): Promise<Usage> {
  const rows = await sql.$queryRaw<Usage[]>`
    SELECT ${USAGE_COLUMNS} FROM "UsageMonth" WHERE "agentId" = ${agentId} AND "month" = ${month}`;
  return rows[0] ?? NO_USAGE;
}

/** The early check: throws the 402 a turn would get now. Not binding (see reserveUsage). */
export async function assertQuotaAvailable(
  db: Database,
  agent: MessagingAgent,
  turn: { month: string; startsConversation: boolean; channel: Channel },
): Promise<void> {
  if (!hasLimits(agent, turn.channel)) return;
  const exhausted = exhaustedQuota(agent, await readUsage(db.prisma, agent.id, turn.month), turn.startsConversation, turn.channel);
  if (exhausted) throw new AppError(USAGE_ERRORS[exhausted]);
}

/**
 * Counts one turn (and its tokens, and a new conversation) in the month's usage, inside the turn's
 * transaction `tx`, only if no limit is exhausted; throws the 402 otherwise (the caller's
 * transaction then rolls back). The UPDATE locks the row until commit and Postgres re-checks its
 * WHERE against the latest committed counters, so concurrent turns cannot overrun a limit.
 */
export async function reserveUsage(
  tx: Sql,
  agent: MessagingAgent,
  turn: { month: string; startsConversation: boolean; tokens: number; at: Date; channel: Channel },
): Promise<Usage> {
  const at = Prisma.sql`(${turn.at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  await tx.$executeRaw`
    INSERT INTO "UsageMonth" ("agentId", "month", "conversations", "tokens", "turns", "widgetConversations", "widgetTokens", "updatedAt")
    VALUES (${agent.id}, ${turn.month}, 0, 0, 0, 0, 0, ${at})
    ON CONFLICT ("agentId", "month") DO NOTHING`;

  const withinLimits: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (turn.startsConversation && agent.monthlyConversationLimit !== null) {
    withinLimits.push(Prisma.sql`"conversations" < ${agent.monthlyConversationLimit}::int`);
  }
  if (agent.monthlyTokenLimit !== null) withinLimits.push(Prisma.sql`"tokens" < ${agent.monthlyTokenLimit}::int`);
  if (agent.usageLimit !== null) withinLimits.push(Prisma.sql`"turns" < ${agent.usageLimit}::int`);
  const widget = turn.channel === "widget";
  if (widget && turn.startsConversation && agent.widgetMonthlyConversationLimit !== null) {
    withinLimits.push(Prisma.sql`"widgetConversations" < ${agent.widgetMonthlyConversationLimit}::int`);
  }
  if (widget && agent.widgetMonthlyTokenLimit !== null)
    withinLimits.push(Prisma.sql`"widgetTokens" < ${agent.widgetMonthlyTokenLimit}::int`);
  const newConversation = turn.startsConversation ? 1 : 0;

  const updated = await tx.$queryRaw<Usage[]>`
    UPDATE "UsageMonth"
    SET "conversations" = "conversations" + ${newConversation}::int,
        "tokens" = "tokens" + ${turn.tokens}::int,
        "turns" = "turns" + 1,
        "widgetConversations" = "widgetConversations" + ${widget ? newConversation : 0}::int,
        "widgetTokens" = "widgetTokens" + ${widget ? turn.tokens : 0}::int,
        "updatedAt" = ${at}
    WHERE "agentId" = ${agent.id} AND "month" = ${turn.month} AND ${Prisma.join(withinLimits, " AND ")}
    RETURNING ${USAGE_COLUMNS}`;
  const usage = updated[0];
  if (usage) return usage;

  const exhausted = exhaustedQuota(agent, await readUsage(tx, agent.id, turn.month), turn.startsConversation, turn.channel);
  throw new AppError(USAGE_ERRORS[exhausted ?? "USAGE_LIMIT_REACHED"]);
}
