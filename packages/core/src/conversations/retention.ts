// Retention: conversations of an agent with a retention setting are erased (visitor-data.ts) once
// they have been inactive longer than its days. The pass is a task of the scheduler on every
// instance, but a cluster-wide lease (retention-task.ts) lets one instance run it per interval.
import type { Database } from "@parley/db";
import { logger } from "../platform/logger.ts";
import type { BackgroundTask } from "../platform/scheduler/task.ts";
import { RETENTION_MAX_PER_PASS, VISITOR_DATA_PAGE } from "./limits.ts";
import { eraseConversations } from "./visitor-data.ts";

const DAY_MS = 86_400_000;

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
}

/** One retention pass (its scheduler task in retention-task.ts takes the cluster's lease first). */
export class RetentionTask implements BackgroundTask {
  readonly name = "retention";
  /** Passes this instance ran (tests: across instances they add up to one per interval). */
  passes = 0;
  private readonly db: Database;
  private readonly now: () => Date;

  constructor(options: RetentionTaskOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
  }

  async run(): Promise<void> {
    this.passes += 1;
    const erased = await eraseExpiredConversations(this.db, this.now());
    if (erased > 0) logger.info("retention erased conversations", { conversations: erased });
  }
}
