// Voice minutes: the seconds of visitor audio heard by voice sessions, per agent and calendar month
// (UTC), in the same "UsageMonth" row as the other quotas. Counted as heard, so a session that
// never sends a turn still spends them; checked before a session starts and before each turn.
import type { Database } from "@parley/db";
import { AppError } from "../platform/errors.ts";
import { usageMonth } from "../usage/quotas.ts";
import { VOICE_ERRORS } from "./errors.ts";

/** Throws the 402 VOICE_QUOTA_EXHAUSTED when the month's voice minutes are used up. */
export async function assertVoiceMinutesLeft(db: Database, agent: { id: string; monthlyVoiceMinutesLimit: number | null }, now: Date) {
  if (agent.monthlyVoiceMinutesLimit === null) return;
  const rows = await db.prisma.$queryRaw<{ voiceSeconds: number }[]>`
    SELECT "voiceSeconds" FROM "UsageMonth" WHERE "agentId" = ${agent.id} AND "month" = ${usageMonth(now)}`;
  if ((rows[0]?.voiceSeconds ?? 0) >= agent.monthlyVoiceMinutesLimit * 60) throw new AppError(VOICE_ERRORS.VOICE_QUOTA_EXHAUSTED);
}

/** Adds heard seconds to the month's count (one statement, safe with concurrent sessions). */
export async function recordVoiceSeconds(db: Database, agentId: string, seconds: number, now: Date): Promise<void> {
  if (seconds <= 0) return;
  await db.prisma.$executeRaw`
    INSERT INTO "UsageMonth" ("agentId", "month", "voiceSeconds", "updatedAt")
    VALUES (${agentId}, ${usageMonth(now)}, ${seconds}, ${now})
    ON CONFLICT ("agentId", "month") DO UPDATE
    SET "voiceSeconds" = "UsageMonth"."voiceSeconds" + EXCLUDED."voiceSeconds", "updatedAt" = EXCLUDED."updatedAt"`;
}
