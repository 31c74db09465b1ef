// The import worker: a task of the scheduler (task.ts). Its run claims queued imports
// and runs a few at once (IMPORT_JOBS_AT_ONCE), looking for another to start while they run, and
// returns once none is running or waiting. Each import reads its items in order, writes each
// article in its own transaction and records progress as it goes; a bad item is reported and
// skipped over; an unreadable upload fails the job with the reason. Each import has a time budget:
// once it is out, the items left are reported as not imported and the job ends.
//
// Fair sharing, across every instance: a claim takes a queued import (or one whose worker's lease
// ran out) only of a workspace with no import running, choosing the workspace whose last import
// started longest ago, then the oldest import. Claims are serialized by a transaction-level
// advisory lock, so two instances never both see a workspace as idle; the lease (renewed every
// third of its length while the import runs) keeps other instances away, and once a crashed
// instance's lease has run out its import is claimed again and starts over.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Database, Prisma } from "@parley/db";
import { describeError, logger } from "../../platform/logger.ts";
import type { BackgroundTask } from "../../platform/scheduler/task.ts";
import { type Resolver, systemResolver } from "../../platform/url-guard.ts";
import {
  IMPORT_FETCH_CONCURRENCY,
  IMPORT_FETCH_TIMEOUT_MS,
  IMPORT_JOBS_AT_ONCE,
  IMPORT_LEASE_MS,
  IMPORT_PROGRESS_EVERY,
  IMPORT_TIME_BUDGET_MS,
} from "../limits.ts";
import { Deadline } from "./budget.ts";
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
  /** Imports this instance runs at once. */
  jobsAtOnce?: number;
  /** How long one import may run. */
  budgetMs?: number;
  /** One page's time, redirects included. */
  fetchTimeoutMs?: number;
  /** Pages of one URL import fetched at once. */
  fetchConcurrency?: number;
  /** How long a claim holds unless renewed. */
  leaseMs?: number;
  /** While imports run, how often to look for another one to start. */
  pollIntervalMs?: number;
}

interface ClaimedJob {
  id: string;
  token: string;
  kind: "markdown_zip" | "urls" | "zendesk" | "intercom";
  sourceId: string;
  workspaceId: string;
  payload: Uint8Array;
}

/** Serializes claims across instances (pg_advisory_xact_lock); distinct from the migrations' lock. */
const CLAIM_LOCK = 72707370;

export class ImportRunner implements BackgroundTask {
  readonly name = "imports";
  private readonly now: () => Date;
  private readonly settings: Required<Pick<ImportRunnerOptions, "jobsAtOnce" | "budgetMs" | "leaseMs" | "pollIntervalMs">>;
  /** The imports this instance is running (kept across runs: a failed claim must not start more). */
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly options: ImportRunnerOptions) {
    this.now = options.now ?? (() => new Date());
    this.settings = {
      jobsAtOnce: options.jobsAtOnce ?? IMPORT_JOBS_AT_ONCE,
      budgetMs: options.budgetMs ?? IMPORT_TIME_BUDGET_MS,
      leaseMs: options.leaseMs ?? IMPORT_LEASE_MS,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
    };
  }

  /** Runs queued imports, a few at once, until none is running or waiting. */
  async run(): Promise<void> {
    this.stopping = false;
    for (;;) {
      while (!this.stopping && this.running.size < this.settings.jobsAtOnce) {
        const job = await this.claim();
        if (!job) break;
        this.start(job);
      }
      if (this.running.size === 0) return;
      await Promise.race([...this.running, sleep(this.settings.pollIntervalMs, undefined, { ref: false })]);
    }
  }

  /** The scheduler is stopping: no more claims, and running imports hand theirs back at their next item. */
  stop(): void {
    this.stopping = true;
  }

  private start(job: ClaimedJob): void {
    const done: Promise<void> = this.runJob(job)
      .catch((error) => logger.error("import failed", { importId: job.id, error: describeError(error) }))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  private async claim(): Promise<ClaimedJob | null> {
    const token = randomBytes(12).toString("hex");
    const now = this.now();
    const leaseEnd = new Date(now.getTime() + this.settings.leaseMs);
    const id = await this.options.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`;
      const [row] = await tx.$queryRaw<Array<{ id: string }>>(Prisma.sql`
        UPDATE "ImportJob" SET "status" = 'running', "claimToken" = ${token}, "lockedUntil" = ${leaseEnd},
          "startedAt" = COALESCE("startedAt", ${now})
        WHERE "id" = (
          SELECT j."id" FROM "ImportJob" j JOIN "Source" s ON s."id" = j."sourceId"
          WHERE (j."status" = 'queued' OR (j."status" = 'running' AND j."lockedUntil" < ${now}))
            AND NOT EXISTS (
              SELECT 1 FROM "ImportJob" r JOIN "Source" rs ON rs."id" = r."sourceId"
              WHERE rs."workspaceId" = s."workspaceId" AND r."status" = 'running' AND r."lockedUntil" >= ${now})
          ORDER BY (
              SELECT max(h."startedAt") FROM "ImportJob" h JOIN "Source" hs ON hs."id" = h."sourceId"
              WHERE hs."workspaceId" = s."workspaceId") NULLS FIRST,
            j."createdAt", j."id"
          LIMIT 1 FOR UPDATE OF j SKIP LOCKED)
        RETURNING "id"`);
      return row?.id ?? null;
    });
    if (!id) return null;
    const job = await this.options.db.prisma.importJob.findUniqueOrThrow({
      where: { id },
      select: { id: true, kind: true, sourceId: true, payload: true, source: { select: { workspaceId: true } } },
    });
    return {
      id: job.id,
      token,
      kind: job.kind,
      sourceId: job.sourceId,
      workspaceId: job.source.workspaceId,
      payload: job.payload ?? new Uint8Array(),
    };
  }

  private items(job: ClaimedJob, deadline: Deadline): AsyncIterable<ImportItem> | Iterable<ImportItem> {
    if (job.kind === "markdown_zip") return markdownZipItems(job.payload);
    if (job.kind === "urls")
      return urlListItems(new TextDecoder().decode(job.payload), {
        allowLocal: this.options.allowLocal ?? false,
        resolve: this.options.resolve ?? systemResolver,
        deadline,
        fetchTimeoutMs: this.options.fetchTimeoutMs ?? IMPORT_FETCH_TIMEOUT_MS,
        concurrency: this.options.fetchConcurrency ?? IMPORT_FETCH_CONCURRENCY,
      });
    return helpDeskExportItems(job.kind, job.payload);
  }

  private async runJob(job: ClaimedJob): Promise<void> {
    const deadline = new Deadline(this.settings.budgetMs);
    const progress = new JobProgress(this.options.db, job, this.settings.leaseMs, this.now);
    const target = { workspaceId: job.workspaceId, sourceId: job.sourceId };
    let error: string | null = null;
    progress.renewWhileRunning();
    try {
      for await (const item of this.items(job, deadline)) {
        if (progress.lost) return;
        if (this.stopping) return await progress.handBack();
        // Past the budget nothing more is written; what needs no writing keeps its own reason.
        const entry =
          deadline.passed && !item.skip && !item.failure
            ? { item: item.name, outcome: "failed" as const, reason: deadline.notImported }
            : await importItem(this.options.db, target, item, this.now());
        progress.add(entry);
        if (progress.count % IMPORT_PROGRESS_EVERY === 0 && !(await progress.save(null))) return;
      }
    } catch (cause) {
      error = cause instanceof Error ? cause.message : "The upload could not be read";
      logger.warn("import stopped", { importId: job.id, error: describeError(cause) });
    } finally {
      progress.stopRenewing();
    }
    await progress.save({ error });
  }
}

/** A running import's report and counts, written (and its lease renewed) only while its claim holds. */
class JobProgress {
  private readonly report: ReportEntry[] = [];
  private readonly counts = { created: 0, updated: 0, skipped: 0, failed: 0, drafts: 0 };
  private timer: NodeJS.Timeout | undefined;
  /** Writes one after another, so an older one never lands after a newer one. */
  private writes: Promise<unknown> = Promise.resolve();
  /** Another instance took the import over (this one's lease had run out): write nothing more. */
  lost = false;

  constructor(
    private readonly db: Database,
    private readonly job: ClaimedJob,
    private readonly leaseMs: number,
    private readonly now: () => Date,
  ) {}

  get count(): number {
    return this.report.length;
  }

  add(entry: ReportEntry): void {
    // Drafts are counted for the summary; the report's lines stay item, outcome and reason.
    const { draft, ...line } = entry;
    this.report.push(line);
    this.counts[entry.outcome]++;
    if (draft) this.counts.drafts++;
  }

  /** Renews the lease even while an item takes long (a page that does not answer). */
  renewWhileRunning(): void {
    this.timer = setInterval(() => {
      this.save(null).catch((error) => logger.warn("import lease not renewed", { importId: this.job.id, error: describeError(error) }));
    }, this.leaseMs / 3);
    this.timer.unref();
  }

  stopRenewing(): void {
    clearInterval(this.timer);
  }

  /** Writes progress (the report too at the end); false once this worker no longer holds the claim. */
  save(end: { error: string | null } | null): Promise<boolean> {
    const now = this.now();
    const data: Prisma.ImportJobUpdateManyMutationInput = {
      ...this.counts,
      total: this.report.length,
      processed: this.report.length,
      lockedUntil: new Date(now.getTime() + this.leaseMs),
      // The report is written once, at the end (rewriting it on every step would grow with the square of its size).
      ...(end
        ? {
            report: this.report as unknown as Prisma.InputJsonValue,
            status: end.error ? "failed" : "done",
            error: end.error,
            finishedAt: now,
            payload: null,
            claimToken: null,
            lockedUntil: null,
          }
        : {}),
    };
    return this.write(data);
  }

  /** Gives the claim back untouched (the worker is stopping): another instance starts the import over. */
  async handBack(): Promise<void> {
    await this.write({ status: "queued", claimToken: null, lockedUntil: null });
  }

  private write(data: Prisma.ImportJobUpdateManyMutationInput): Promise<boolean> {
    const next = this.writes
      .catch(() => undefined)
      .then(() => this.db.prisma.importJob.updateMany({ where: { id: this.job.id, claimToken: this.job.token }, data }))
      .then(({ count }) => {
        if (count === 0) this.lost = true;
        return count > 0;
      });
    this.writes = next;
    return next;
  }
}
