// One task's loop on one instance: run, wait, run again. A run that fails is recorded and logged
// (one line, no stack) and the loop goes on; the other tasks' loops never wait for it.
import type { Database } from "@parley/db";
import { describeError, logger } from "../logger.ts";
import { claimJobLease, releaseJobLease } from "./lease.ts";
import { emptyMetrics, errorCode, type TaskMetrics } from "./metrics.ts";
import type { RunResult, ScheduledTask } from "./task.ts";

/** The longest an instance waits before asking for a cluster lease again. */
const LEASE_CHECK_MAX_MS = 60_000;

export interface LoopEnvironment {
  db: Database;
  /** This instance (the scheduler's name): logs and the lease's holder. */
  instance: string;
  now: () => Date;
}

/** How often an instance asks for a cluster-leased task's lease. */
export function leaseCheckEveryMs(task: ScheduledTask): number {
  return task.lease?.checkEveryMs ?? Math.min(LEASE_CHECK_MAX_MS, task.intervalMs);
}

export class TaskLoop {
  readonly metrics: TaskMetrics = emptyMetrics();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private wakePending = false;
  private failuresInARow = 0;

  constructor(
    readonly task: ScheduledTask,
    private readonly env: LoopEnvironment,
  ) {}

  start(): void {
    if (this.loop || this.stopping) return;
    this.loop = this.run();
  }

  /** Runs the task now: ends the wait, or runs again as soon as the current run ends. */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wakePending = true;
  }

  /** No more runs; asks the task to end its current run (within graceMs) and waits until it has. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all([Promise.resolve().then(() => this.task.stop?.(graceMs)), this.loop]);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const waitMs = await this.turn();
      if (this.stopping) break;
      await this.sleep(waitMs);
    }
  }

  /** Takes the lease if the task has one, runs the task and records the run; returns the wait before the next turn. */
  private async turn(): Promise<number> {
    const startedAt = this.env.now();
    const clock = performance.now();
    let begun = false;
    const begin = () => {
      begun = true;
      this.metrics.runs += 1;
      this.metrics.lastStartedAt = startedAt;
      this.metrics.runningSince = startedAt;
    };
    try {
      if (this.task.lease && !(await this.claimLease(startedAt))) return leaseCheckEveryMs(this.task);
      begin();
      const result = await this.runTask();
      this.finish(startedAt, clock, null);
      this.failuresInARow = 0;
      return result === "more" ? 0 : this.restMs();
    } catch (error) {
      if (!begun) begin();
      this.finish(startedAt, clock, { error });
      this.failuresInARow += 1;
      if (!this.stopping)
        logger.error("background task failed", { worker: this.env.instance, task: this.task.name, error: describeError(error) });
      return this.backoffMs();
    }
  }

  private claimLease(now: Date): Promise<boolean> {
    const { name, intervalMs, lease } = this.task;
    return claimJobLease(this.env.db, { name, holder: this.env.instance, intervalMs, leaseMs: lease?.holdMs ?? intervalMs }, now);
  }

  private async runTask(): Promise<RunResult> {
    if (!this.task.lease) return this.task.run();
    try {
      return await this.task.run();
    } finally {
      await releaseJobLease(this.env.db, this.task.name, this.env.instance);
    }
  }

  /** Records the end of a run: `failure` holds what it threw, or is null when it succeeded. */
  private finish(startedAt: Date, clock: number, failure: { error: unknown } | null): void {
    const metrics = this.metrics;
    const elapsedMs = performance.now() - clock;
    metrics.runningSince = null;
    metrics.lastFinishedAt = new Date(startedAt.getTime() + elapsedMs);
    metrics.lastDurationMs = Math.round(elapsedMs);
    metrics.lastOutcome = failure ? "error" : "ok";
    metrics.lastErrorCode = failure ? errorCode(failure.error) : null;
    if (failure) metrics.failures += 1;
  }

  /** The wait after a run: the interval, or for a leased task until its next lease check. */
  private restMs(): number {
    return this.task.lease ? leaseCheckEveryMs(this.task) : this.task.intervalMs;
  }

  private backoffMs(): number {
    const rest = this.restMs();
    if (this.task.maxBackoffMs === undefined) return rest;
    return Math.min(this.task.maxBackoffMs, rest * 2 ** this.failuresInARow);
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      timer = setTimeout(done, ms);
      timer.unref?.();
      this.wakeUp = done;
    });
  }
}
