// The import worker: a background task on the webhook worker's loop. It claims the oldest queued
// import (or one whose worker's lease ran out) with FOR UPDATE SKIP LOCKED, reads its items one
// at a time, writes each article in its own transaction, and records progress as it goes. A bad
// item is reported and skipped over; an unreadable upload fails the job with the reason.
import { randomBytes } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { IMPORT_LEASE_MS, IMPORT_PROGRESS_EVERY } from "../limits.ts";
import { describeError, logger } from "../logger.ts";
import { type Resolver, systemResolver } from "../webhooks/url-guard.ts";
import type { BackgroundTask } from "../webhooks/worker.ts";
import { helpDeskExportItems } from "./help-desk-exports.ts";
import { type ImportItem, importItem, type ReportEntry } from "./items.ts";
import { markdownZipItems } from "./markdown-zip.ts";
import { urlListItems } from "./url-list.ts";

export interface ImportRunnerOptions {
  db: Database;
  /** Allow http:// and local addresses for URL imports (WEBHOOKS_ALLOW_LOCAL). */
  allowLocal?: boolean;
  resolve?: Resolver;
  now?: () => Date;
}

interface ClaimedJob {
  id: string;
  kind: "markdown_zip" | "urls" | "zendesk" | "intercom";
  sourceId: string;
  workspaceId: string;
  payload: Uint8Array;
}

export class ImportRunner implements BackgroundTask {
  readonly name = "imports";
  private readonly now: () => Date;

  constructor(private readonly options: ImportRunnerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Runs queued imports until none is left. */
  async run(): Promise<void> {
    for (;;) {
      const token = randomBytes(12).toString("hex");
      const job = await this.claim(token);
      if (!job) return;
      await this.runJob(job, token);
    }
  }

  private async claim(token: string): Promise<ClaimedJob | null> {
    const now = this.now();
    const leaseEnd = new Date(now.getTime() + IMPORT_LEASE_MS);
    const [row] = await this.options.db.prisma.$queryRaw<Array<{ id: string }>>(Prisma.sql`
      UPDATE "ImportJob" SET "status" = 'running', "claimToken" = ${token}, "lockedUntil" = ${leaseEnd},
        "startedAt" = COALESCE("startedAt", ${now})
      WHERE "id" = (
        SELECT "id" FROM "ImportJob"
        WHERE "status" = 'queued' OR ("status" = 'running' AND "lockedUntil" < ${now})
        ORDER BY "createdAt", "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING "id"`);
    if (!row) return null;
    const job = await this.options.db.prisma.importJob.findUniqueOrThrow({
      where: { id: row.id },
      select: { id: true, kind: true, sourceId: true, payload: true, source: { select: { workspaceId: true } } },
    });
    return {
      id: job.id,
      kind: job.kind,
      sourceId: job.sourceId,
      workspaceId: job.source.workspaceId,
      payload: job.payload ?? new Uint8Array(),
    };
  }

  private items(job: ClaimedJob): AsyncIterable<ImportItem> | Iterable<ImportItem> {
    if (job.kind === "markdown_zip") return markdownZipItems(job.payload);
    if (job.kind === "urls")
      return urlListItems(new TextDecoder().decode(job.payload), {
        allowLocal: this.options.allowLocal ?? false,
        resolve: this.options.resolve ?? systemResolver,
      });
    return helpDeskExportItems(job.kind, job.payload);
  }

  private async runJob(job: ClaimedJob, token: string): Promise<void> {
    const report: ReportEntry[] = [];
    const counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
    const target = { workspaceId: job.workspaceId, sourceId: job.sourceId };
    let error: string | null = null;
    try {
      for await (const item of this.items(job)) {
        const entry = await importItem(this.options.db, target, item, this.now());
        report.push(entry);
        counts[entry.outcome]++;
        if (report.length % IMPORT_PROGRESS_EVERY === 0 && !(await this.progress(job.id, token, report, counts, null))) return;
      }
    } catch (cause) {
      error = cause instanceof Error ? cause.message : "The upload could not be read";
      logger.warn("import stopped", { importId: job.id, error: describeError(cause) });
    }
    await this.progress(job.id, token, report, counts, { error });
  }

  /** Writes progress while this worker still holds the claim (false once it lost it). */
  private async progress(
    id: string,
    token: string,
    report: ReportEntry[],
    counts: Record<ReportEntry["outcome"], number>,
    end: { error: string | null } | null,
  ): Promise<boolean> {
    const now = this.now();
    const { count } = await this.options.db.prisma.importJob.updateMany({
      where: { id, claimToken: token },
      data: {
        ...counts,
        total: report.length,
        processed: report.length,
        lockedUntil: new Date(now.getTime() + IMPORT_LEASE_MS),
        // The report is written once, at the end (rewriting it on every step would grow with the square of its size).
        ...(end ? { report: report as unknown as Prisma.InputJsonValue } : {}),
        ...(end
          ? { status: end.error ? "failed" : "done", error: end.error, finishedAt: now, payload: null, claimToken: null, lockedUntil: null }
          : {}),
      },
    });
    return count > 0;
  }
}
