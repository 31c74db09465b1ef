// The scheduler of background work: named tasks, each with its interval, optional cluster-wide
// lease and metrics. Features declare their tasks beside their code; the app adds them at start-up.
export { claimJobLease, type LeaseState, readJobLeases, releaseJobLease } from "./lease.ts";
export { errorCode, type TaskMetrics } from "./metrics.ts";
export { Scheduler, type SchedulerOptions } from "./scheduler.ts";
export { OVERDUE_GRACE_MS, type TaskStatus, taskStatus } from "./status.ts";
export { type BackgroundTask, type ClusterLease, type RunResult, type ScheduledTask, scheduleTask, type TaskSchedule } from "./task.ts";
