// A task's status as the health route shows it: its schedule, this instance's metrics, and
// whether it is overdue.
import type { LeaseState } from "./lease.ts";
import type { TaskMetrics } from "./metrics.ts";
import type { ScheduledTask } from "./task.ts";
import { leaseCheckEveryMs } from "./task-loop.ts";

/** How late a run may be before the task counts as overdue. */
export const OVERDUE_GRACE_MS = 60_000;

export interface TaskStatus extends TaskMetrics {
  name: string;
  intervalMs: number;
  /** "cluster": one run per interval across the instances (a lease); "instance": every instance runs it. */
  scope: "instance" | "cluster";
  /** Cluster-leased tasks: when the last run started on any instance (null: never). */
  clusterLastRunAt?: Date | null;
  overdue: boolean;
}

/**
 * Overdue: no run has started when one should have, by more than OVERDUE_GRACE_MS. A task running
 * now is not overdue (its runningSince tells how long it has been at it). An instance task is
 * judged by this instance's last finished run (or the scheduler's start); a cluster task by its
 * lease: its last run anywhere, unless an instance holds the lease now.
 */
export function taskStatus(
  task: ScheduledTask,
  metrics: TaskMetrics,
  at: { now: Date; startedAt: Date | null; lease?: LeaseState | null },
): TaskStatus {
  const base = { name: task.name, intervalMs: task.intervalMs, ...metrics };
  const late = (since: Date | null, allowedMs: number) =>
    since === null || at.now.getTime() - since.getTime() > allowedMs + OVERDUE_GRACE_MS;
  if (!task.lease) {
    const allowedMs = Math.max(task.intervalMs, task.maxBackoffMs ?? 0);
    const overdue = metrics.runningSince === null && late(metrics.lastFinishedAt ?? at.startedAt, allowedMs);
    return { ...base, scope: "instance", overdue };
  }
  const lastRunAt = at.lease?.lastRunAt ?? null;
  const heldNow = (at.lease?.lockedUntil?.getTime() ?? 0) > at.now.getTime();
  const overdue = !heldNow && late(lastRunAt ?? at.startedAt, task.intervalMs + leaseCheckEveryMs(task));
  return { ...base, scope: "cluster", clusterLastRunAt: lastRunAt, overdue };
}
