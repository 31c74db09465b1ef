import type { Database } from "@parley/db";
import type { Scheduler } from "./scheduler/scheduler.ts";

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsHealthy(getDb: () => Promise<Database>, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const check = (async () => {
    const db = await getDb();
    await db.query("SELECT 1");
    return true as const;
  })().catch(() => false as const);
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A background task as GET /api/health/tasks shows it: times as ISO strings, no error text. */
export interface TaskHealth {
  name: string;
  intervalMs: number;
  scope: "instance" | "cluster";
  running: boolean;
  runningSince: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastDurationMs: number | null;
  lastOutcome: "ok" | "error" | null;
  lastErrorCode: string | null;
  runs: number;
  failures: number;
  /** Cluster-leased tasks: when the last run started on any instance. */
  clusterLastRunAt?: string | null;
  overdue: boolean;
}

export interface TasksHealth {
  /** "overdue" when any task is. */
  status: "ok" | "overdue";
  /** The instance that answered (each instance reports its own runs). */
  instance: string;
  tasks: TaskHealth[];
}

/** The scheduler's tasks, for the health route of authorised callers. */
export async function tasksHealth(scheduler: Pick<Scheduler, "name" | "status">): Promise<TasksHealth> {
  const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
  const tasks = (await scheduler.status()).map(
    (task): TaskHealth => ({
      name: task.name,
      intervalMs: task.intervalMs,
      scope: task.scope,
      running: task.runningSince !== null,
      runningSince: iso(task.runningSince),
      lastStartedAt: iso(task.lastStartedAt),
      lastFinishedAt: iso(task.lastFinishedAt),
      lastDurationMs: task.lastDurationMs,
      lastOutcome: task.lastOutcome,
      lastErrorCode: task.lastErrorCode,
      runs: task.runs,
      failures: task.failures,
      ...(task.scope === "cluster" ? { clusterLastRunAt: iso(task.clusterLastRunAt) } : {}),
      overdue: task.overdue,
    }),
  );
  return { status: tasks.some((task) => task.overdue) ? "overdue" : "ok", instance: scheduler.name, tasks };
}
