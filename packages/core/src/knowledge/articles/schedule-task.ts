// Scheduled publication as a task of the scheduler: every instance looks for articles whose time
// has come every second (each publication is a conditional update, so two instances never publish
// one article twice).
import { type ScheduledTask, scheduleTask } from "../../platform/scheduler/task.ts";
import type { ScheduledPublisher } from "./schedule.ts";

export const SCHEDULED_PUBLICATIONS_INTERVAL_MS = 1_000;

export function scheduledPublicationsTask(work: ScheduledPublisher, intervalMs = SCHEDULED_PUBLICATIONS_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs });
}
