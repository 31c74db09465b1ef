// Monthly quotas (spec 7, 8): conversations, text tokens and the usage limit (agent turns), per
// agent and calendar month (UTC), counted in "UsageMonth". A cheap check before the engine runs
// gives an early 402; the binding decision is a conditional UPDATE inside the turn's transaction,
// so of many concurrent turns competing for the last unit exactly one gets it.
import { type Database, Prisma } from "@parley/db";
import { AppError, type ErrorCode } from "../errors.ts";
import type { MessagingAgent } from "./auth.ts";

type Limits = Pick<MessagingAgent, "monthlyConversationLimit" | "monthlyTokenLimit" | "usageLimit">;
type Sql = Pick<Database["prisma"], "$queryRaw" | "$executeRaw">;

export interface Usage {
  conversations: number;
  tokens: number;
  turns: number;
}

/** The usage month of a moment: "YYYY-MM" in UTC. */
export function usageMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/**
 * Which quota a turn would exceed, or null. Tokens are known only after the turn, so a turn may
 * start while any token is left and the month's total may end a little above the limit.
 */
export function exhaustedQuota(limits: Limits, usage: Usage, startsConversation: boolean): ErrorCode | null {
  if (startsConversation && limits.monthlyConversationLimit !== null && usage.conversations >= limits.monthlyConversationLimit) {
    return "CONVERSATION_QUOTA_EXHAUSTED";
  }
  if (limits.monthlyTokenLimit !== null && usage.tokens >= limits.monthlyTokenLimit) return "TOKEN_QUOTA_EXHAUSTED";
  if (limits.usageLimit !== null && usage.turns >= limits.usageLimit) return "USAGE_LIMIT_REACHED";
  return null;
}

const NO_USAGE: Usage = { conversations: 0, tokens: 0, turns: 0 };

async function readUsage(sql: Sql, agentId: string, month: string): Promise<Usage> {
  const rows = await sql.$queryRaw<Usage[]>`
    SELECT "conversations", "tokens", "turns" FROM "UsageMonth" WHERE "agentId" = ${agentId} AND "month" = ${month}`;
  return rows[0] ?? NO_USAGE;
}

/** The early check: throws the 402 a turn would get now. Not binding (see reserveUsage). */
export async function assertQuotaAvailable(db: Database, agent: MessagingAgent, month: string, startsConversation: boolean): Promise<void> {
  if (agent.monthlyConversationLimit === null && agent.monthlyTokenLimit === null && agent.usageLimit === null) return;
  const exhausted = exhaustedQuota(agent, await readUsage(db.prisma, agent.id, month), startsConversation);
  if (exhausted) throw new AppError(exhausted);
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
  turn: { month: string; startsConversation: boolean; tokens: number; at: Date },
): Promise<Usage> {
  const at = Prisma.sql`(${turn.at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  await tx.$executeRaw`
    INSERT INTO "UsageMonth" ("agentId", "month", "conversations", "tokens", "turns", "updatedAt")
    VALUES (${agent.id}, ${turn.month}, 0, 0, 0, ${at})
    ON CONFLICT ("agentId", "month") DO NOTHING`;

  const withinLimits: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (turn.startsConversation && agent.monthlyConversationLimit !== null) {
    withinLimits.push(Prisma.sql`"conversations" < ${agent.monthlyConversationLimit}::int`);
  }
  if (agent.monthlyTokenLimit !== null) withinLimits.push(Prisma.sql`"tokens" < ${agent.monthlyTokenLimit}::int`);
  if (agent.usageLimit !== null) withinLimits.push(Prisma.sql`"turns" < ${agent.usageLimit}::int`);

  const updated = await tx.$queryRaw<Usage[]>`
    UPDATE "UsageMonth"
    SET "conversations" = "conversations" + ${turn.startsConversation ? 1 : 0}::int,
        "tokens" = "tokens" + ${turn.tokens}::int,
        "turns" = "turns" + 1,
        "updatedAt" = ${at}
    WHERE "agentId" = ${agent.id} AND "month" = ${turn.month} AND ${Prisma.join(withinLimits, " AND ")}
    RETURNING "conversations", "tokens", "turns"`;
  const usage = updated[0];
  if (usage) return usage;

  const exhausted = exhaustedQuota(agent, await readUsage(tx, agent.id, turn.month), turn.startsConversation);
  throw new AppError(exhausted ?? "USAGE_LIMIT_REACHED");
}
