// How long a stored idempotent response lives, and the hourly prune of expired ones (run by the
// webhook worker with its own prune; lookups ignore expired records anyway).
import type { Database } from "@parley/db";
import { IDEMPOTENCY_TTL_HOURS } from "./limits.ts";

/** Records created at or before this time have expired. */
export function idempotencyCutoff(now: Date): Date {
  return new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000);
}

/** Deletes expired records. */
export async function pruneIdempotencyRecords(db: Database, now: Date): Promise<number> {
  const { count } = await db.prisma.idempotencyRecord.deleteMany({ where: { createdAt: { lte: idempotencyCutoff(now) } } });
  return count;
}
