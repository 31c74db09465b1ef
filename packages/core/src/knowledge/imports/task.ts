// Imports as a task of the scheduler: every instance looks for queued imports every second; a run
// lasts while its imports run (instances share them through their claims and leases, runner.ts).
// When the scheduler stops, running imports are handed back.
import { type ScheduledTask, scheduleTask } from "../../platform/scheduler/task.ts";
import type { ImportRunner } from "./runner.ts";

export const IMPORTS_INTERVAL_MS = 1_000;

export function importsTask(work: ImportRunner, intervalMs = IMPORTS_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs });
}
