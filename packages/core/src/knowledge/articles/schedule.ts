// Scheduled publication: the editor sets a time (publishAt) on a draft; a scheduler task
// (./schedule-task.ts) publishes the article once that time has come, flipping `published` as a
// person would, so the help centre's visibility rule stays the one in knowledge/visibility.ts (a
// scheduled draft is a draft).
import type { Database } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import { AppError } from "../../platform/errors.ts";
import { logger } from "../../platform/logger.ts";
import type { BackgroundTask } from "../../platform/scheduler/task.ts";
import { KNOWLEDGE_ERRORS } from "../errors.ts";
import { ARTICLE_SCHEDULE_MAX_DAYS, SCHEDULED_PUBLICATIONS_PER_PASS } from "../limits.ts";
import { recordArticlePublication } from "./articles.ts";
import { recordRevision } from "./history.ts";

const DAY_MS = 86_400_000;

export const scheduleArticleInput = z.object({
  id: rowId,
  /** ISO 8601; null cancels the schedule. */
  publishAt: z.iso.datetime({ offset: true }).nullable(),
});

/** Sets or cancels a draft's scheduled publication (a published article needs none). */
export async function scheduleArticle(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof scheduleArticleInput>,
  now: Date,
): Promise<{ publishAt: Date | null }> {
  const publishAt = input.publishAt === null ? null : new Date(input.publishAt);
  if (publishAt && publishAt.getTime() <= now.getTime()) throw new AppError("INVALID_REQUEST", { details: "Choose a time in the future" });
  if (publishAt && publishAt.getTime() > now.getTime() + ARTICLE_SCHEDULE_MAX_DAYS * DAY_MS)
    throw new AppError("INVALID_REQUEST", { details: `Choose a time within ${ARTICLE_SCHEDULE_MAX_DAYS} days` });
  await db.prisma.$transaction(async (tx) => {
    const { count } = await tx.article.updateMany({
      where: { id: input.id, source: { workspaceId: scope.workspaceId } },
      data: { publishAt },
    });
    if (count === 0) throw new AppError(KNOWLEDGE_ERRORS.ARTICLE_NOT_FOUND);
    const { title } = await tx.article.findUniqueOrThrow({ where: { id: input.id }, select: { title: true } });
    await recordAudit(tx, scope, {
      action: publishAt ? "article.scheduled" : "article.unscheduled",
      targetType: "article",
      targetId: input.id,
      targetLabel: title,
      detail: publishAt ? { publishAt: publishAt.toISOString() } : {},
    });
  });
  return { publishAt };
}

/**
 * Publishes the articles whose time has come: each in its own transaction (published, the
 * webhook event, a revision by nobody). Returns how many it published.
 */
export async function publishDueArticles(db: Database, now: Date): Promise<number> {
  const due = await db.prisma.article.findMany({
    where: { publishAt: { lte: now } },
    select: { id: true, source: { select: { workspaceId: true } } },
    orderBy: { publishAt: "asc" },
    take: SCHEDULED_PUBLICATIONS_PER_PASS,
  });
  let published = 0;
  for (const article of due) {
    await db.prisma.$transaction(async (tx) => {
      // An article published meanwhile keeps its first publication; the schedule is cleared either way.
      const { count } = await tx.article.updateMany({
        where: { id: article.id, publishAt: { lte: now }, published: false },
        data: { published: true, publishedAt: now, publishAt: null },
      });
      if (count === 0) {
        await tx.article.updateMany({ where: { id: article.id, publishAt: { lte: now } }, data: { publishAt: null } });
        return;
      }
      await recordArticlePublication(tx, article.source.workspaceId, article.id, true, now);
      await recordRevision(tx, article.id, null, now);
      published++;
    });
  }
  return published;
}

/** The background work that publishes scheduled articles (scheduled in article-schedule-task.ts). */
export class ScheduledPublisher implements BackgroundTask {
  readonly name = "scheduled-publications";
  constructor(private readonly options: { db: Database; now?: () => Date }) {}

  async run(): Promise<void> {
    const count = await publishDueArticles(this.options.db, (this.options.now ?? (() => new Date()))());
    if (count > 0) logger.info("scheduled articles published", { count });
  }
}
