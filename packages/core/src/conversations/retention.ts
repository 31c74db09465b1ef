// Retention: conversations of an agent with a retention setting are erased (visitor-data.ts) once
// they have been inactive longer than its days. The pass runs on the worker's loop of every
// instance, but a cluster-wide lease row (JobLease) lets one instance run it per interval.
import { randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { RETENTION_INTERVAL_MS, RETENTION_MAX_PER_PASS, VISITOR_DATA_PAGE } from "../platform/limits.ts";
import { logger } from "../platform/logger.ts";
import { eraseConversations } from "./visitor-data.ts";

const DAY_MS = 86_400_000;
const RETENTION_JOB = "retention";

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

async function releaseJobLease(db: Database, name: string, holder: string): Promise<void> {
  await db.prisma.jobLease.updateMany({ where: { name, holder }, data: { holder: null, lockedUntil: null } });
}

/**
 * Erases every agent's conversations past its retention (at most `limit` this pass, the oldest
 * first; the rest on the next). Returns how many it erased.
 */
export async function eraseExpiredConversations(db: Database, now: Date, limit = RETENTION_MAX_PER_PASS): Promise<number> {
  const agents = await db.prisma.agent.findMany({ where: { retentionDays: { not: null } }, select: { id: true, retentionDays: true } });
  let erased = 0;
  for (const agent of agents) {
    const before = new Date(now.getTime() - (agent.retentionDays ?? 0) * DAY_MS);
    while (erased < limit) {
      const page = await db.prisma.conversation.findMany({
        where: { agentId: agent.id, erasedAt: null, updatedAt: { lt: before } },
        select: { id: true },
        orderBy: { updatedAt: "asc" },
        take: Math.min(VISITOR_DATA_PAGE, limit - erased),
      });
      if (page.length === 0) break;
      await db.prisma.$transaction(
        (tx) =>
          eraseConversations(
            tx,
            page.map((row) => row.id),
            now,
          ),
        { timeout: 60_000 },
      );
      erased += page.length;
    }
  }
  return erased;
}

export interface RetentionTaskOptions {
  db: Database;
  now?: () => Date;
  intervalMs?: number;
  /** Identifies this instance in the lease. */
  holder?: string;
}

/** The retention pass as a background task of the worker's loop (BackgroundTask of webhooks/worker.ts). */
export class RetentionTask {
  readonly name = "retention";
  /** Passes this instance ran (tests: across instances they add up to one per interval). */
  passes = 0;
  private readonly db: Database;
  private readonly now: () => Date;
  private readonly intervalMs: number;
  private readonly holder: string;
  private lastTry: number | null = null;

  constructor(options: RetentionTaskOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
    this.holder = options.holder ?? `retention-${randomBytes(4).toString("hex")}`;
  }

  async run(): Promise<void> {
    const now = this.now();
    // The loop polls every second; the lease is asked at most once a minute per instance.
    if (this.lastTry !== null && now.getTime() - this.lastTry < Math.min(60_000, this.intervalMs)) return;
    this.lastTry = now.getTime();
    const job = { name: RETENTION_JOB, holder: this.holder, intervalMs: this.intervalMs, leaseMs: this.intervalMs };
    if (!(await claimJobLease(this.db, job, now))) return;
    try {
      this.passes += 1;
      const erased = await eraseExpiredConversations(this.db, now);
      if (erased > 0) logger.info("retention erased conversations", { conversations: erased });
    } finally {
      await releaseJobLease(this.db, RETENTION_JOB, this.holder);
    }
  }
}
