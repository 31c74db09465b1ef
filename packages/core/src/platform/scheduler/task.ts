// What the scheduler runs: a feature's background work (BackgroundTask) with its schedule. Each
// feature declares its own task beside its code (webhooks/task.ts, imports/task.ts, ...); the app
// adds them to one Scheduler at start-up.

/**
 * A run's answer: "more" when work may be left (a full batch), so the next run starts at once
 * instead of after the interval.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: most runs return nothing (Promise<void>).
export type RunResult = void | "more";

/** A feature's background work: one run at a time per instance. */
export interface BackgroundTask {
  readonly name: string;
  run(): Promise<RunResult>;
  /** The scheduler is stopping: end the current run soon (a long one, such as an import, hands its work back). */
  stop?(graceMs: number): void | Promise<void>;
}

/**
 * One run per interval across every instance on the database: before each run the instance takes
 * the task's lease row (JobLease, named after the task); see lease.ts.
 */
export interface ClusterLease {
  /** How long a run may hold the lease before another instance may take it (a crashed holder's expires). */
  holdMs: number;
  /** How often each instance asks for the lease (default: the interval, at most a minute). */
  checkEveryMs?: number;
}

export interface TaskSchedule {
  /**
   * Per instance: the wait between the end of one run and the start of the next. With a cluster
   * lease: the time between runs across the cluster.
   */
  intervalMs: number;
  /** Without it every instance runs the task (work shared, if at all, through the task's own row claims). */
  lease?: ClusterLease;
  /** After failures in a row wait intervalMs × 2^failures, up to this; without it the interval. */
  maxBackoffMs?: number;
}

export interface ScheduledTask extends BackgroundTask, TaskSchedule {
  /** Given once when the task is added: `wake()` runs the task now instead of at its interval. */
  connect?(wake: () => void): void;
}

/** A feature's work on a schedule (the work's methods stay bound to it). */
export function scheduleTask(work: BackgroundTask, schedule: TaskSchedule): ScheduledTask {
  return {
    ...schedule,
    name: work.name,
    run: () => work.run(),
    stop: work.stop ? (graceMs) => work.stop?.(graceMs) : undefined,
  };
}
