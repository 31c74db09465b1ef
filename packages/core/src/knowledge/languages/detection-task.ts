// Language detection of older articles as a task of the scheduler: every instance fills in a batch
// every second while some are missing (each row is written only if unchanged since it was read).
import { type ScheduledTask, scheduleTask } from "../../platform/scheduler/task.ts";
import type { LanguageDetectionTask } from "./detected.ts";

export const LANGUAGE_DETECTION_INTERVAL_MS = 1_000;

export function languageDetectionTask(work: LanguageDetectionTask, intervalMs = LANGUAGE_DETECTION_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs });
}
