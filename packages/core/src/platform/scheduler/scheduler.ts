// The one scheduler of background work: every app instance runs one, with the tasks the app adds
// at start-up (webhook deliveries, scheduled publications, retention, language detection,
// imports, embeddings). Each task has its own loop, interval, optional cluster lease and metrics;
// a slow or failing task never holds up another.
import { randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { readJobLeases } from "./lease.ts";
import { type TaskStatus, taskStatus } from "./status.ts";
import type { ScheduledTask } from "./task.ts";
import { TaskLoop } from "./task-loop.ts";

export interface SchedulerOptions {
  db: Database;
  /** Identifies this instance in logs and as the holder of leases. */
  name?: string;
  now?: () => Date;
}

export class Scheduler {
  readonly name: string;
  private readonly db: Database;
  private readonly now: () => Date;
  private readonly loops = new Map<string, TaskLoop>();
  private startedAt: Date | null = null;
  private running = false;

  constructor(options: SchedulerOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.name = options.name ?? `instance-${randomBytes(3).toString("hex")}`;
  }

  /** Adds a task (names are unique); it starts with the scheduler, or at once if that has started. */
  add(task: ScheduledTask): this {
    if (this.loops.has(task.name)) throw new Error(`Scheduler: a task named "${task.name}" was already added`);
    if (!(task.intervalMs > 0)) throw new Error(`Scheduler: task "${task.name}" needs an interval above 0 ms`);
    const loop = new TaskLoop(task, { db: this.db, instance: this.name, now: this.now });
    task.connect?.(() => loop.wake());
    this.loops.set(task.name, loop);
    if (this.running) loop.start();
    return this;
  }

  /** Starts every task's loop (each runs once at once); returns at once. A scheduler starts once. */
  start(): this {
    if (this.running || this.startedAt) return this;
    this.running = true;
    this.startedAt = this.now();
    for (const loop of this.loops.values()) loop.start();
    return this;
  }

  /** Runs the named task now instead of at its interval. */
  wake(name: string): void {
    this.loops.get(name)?.wake();
  }

  /**
   * Stops cleanly: no new runs; each task is asked to end its current run (webhook deliveries in
   * flight get `graceMs`), and this resolves once every run has ended.
   */
  async stop(graceMs = 3_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await Promise.all([...this.loops.values()].map((loop) => loop.stop(graceMs)));
  }

  get taskNames(): string[] {
    return [...this.loops.keys()];
  }

  /** Every task's status, in the order added; cluster-leased tasks read their lease rows. */
  async status(): Promise<TaskStatus[]> {
    const loops = [...this.loops.values()];
    const leased = loops.filter((loop) => loop.task.lease).map((loop) => loop.task.name);
    const leases = await readJobLeases(this.db, leased);
    const now = this.now();
    return loops.map((loop) =>
      taskStatus(loop.task, { ...loop.metrics }, { now, startedAt: this.startedAt, lease: leases.get(loop.task.name) ?? null }),
    );
  }
}
