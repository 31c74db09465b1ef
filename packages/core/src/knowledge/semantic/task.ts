// The embeddings worker as a task of the scheduler: every instance runs it every second; a run is
// one cheap query unless an article changed or a retry or rescan is due (indexer.ts). Instances
// share articles through their claims and leases.
import { type ScheduledTask, scheduleTask } from "../../platform/scheduler/task.ts";
import type { EmbeddingIndexer } from "./indexer.ts";

export const EMBEDDINGS_INTERVAL_MS = 1_000;

export function embeddingsTask(work: EmbeddingIndexer, intervalMs = EMBEDDINGS_INTERVAL_MS): ScheduledTask {
  return scheduleTask(work, { intervalMs });
}
