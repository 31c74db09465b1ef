// Retention as a task of the scheduler: once an hour across the cluster. Every instance asks for
// the "retention" lease once a minute; the one that takes it runs the pass and gives it back (a
// crashed holder's lease expires after the interval).

import { type ScheduledTask, scheduleTask } from "../platform/scheduler/task.ts";
import { RETENTION_INTERVAL_MS } from "./limits.ts";
import type { RetentionTask } from "./retention.ts";

export function retentionTask(work: RetentionTask, intervalMs = RETENTION_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs, lease: { holdMs: intervalMs } });
}
