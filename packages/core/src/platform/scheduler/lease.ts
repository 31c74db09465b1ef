// A task's cluster-wide lease: one row of JobLease per task name. An instance takes it when the
// task's interval has passed since the last run (on any instance) and no live lease holds it,
// runs the task and gives the lease back; a holder that dies leaves its lease to expire.
import type { Database } from "@parley/db";

/**
 * Takes the named job's lease when its interval has passed since the last run and no live lease
 * holds it. One conditional UPDATE: of two instances claiming at once, exactly one succeeds.
 */
export async function claimJobLease(
  db: Database,
  job: { name: string; holder: string; intervalMs: number; leaseMs: number },
  now: Date,
): Promise<boolean> {
  await db.prisma.$executeRaw`INSERT INTO "JobLease" ("name") VALUES (${job.name}) ON CONFLICT ("name") DO NOTHING`;
  const due = new Date(now.getTime() - job.intervalMs);
  const until = new Date(now.getTime() + job.leaseMs);
  const claimed = await db.prisma.$executeRaw`
    UPDATE "JobLease" SET "holder" = ${job.holder}, "lockedUntil" = ${until}, "lastRunAt" = ${now}, "runs" = "runs" + 1
    WHERE "name" = ${job.name}
      AND ("lastRunAt" IS NULL OR "lastRunAt" <= ${due})
      AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})`;
  return claimed === 1;
}

/** Gives the lease back after a run (only its holder can). */
export async function releaseJobLease(db: Database, name: string, holder: string): Promise<void> {
  await db.prisma.jobLease.updateMany({ where: { name, holder }, data: { holder: null, lockedUntil: null } });
}

export interface LeaseState {
  /** When the last run started, on whichever instance. */
  lastRunAt: Date | null;
  /** Set while an instance holds the lease. */
  lockedUntil: Date | null;
}

/** The lease rows of the named tasks (a task never run has none). */
export async function readJobLeases(db: Database, names: readonly string[]): Promise<Map<string, LeaseState>> {
  if (names.length === 0) return new Map();
  const rows = await db.prisma.jobLease.findMany({
    where: { name: { in: [...names] } },
    select: { name: true, lastRunAt: true, lockedUntil: true },
  });
  return new Map(rows.map((row) => [row.name, { lastRunAt: row.lastRunAt, lockedUntil: row.lockedUntil }]));
}
