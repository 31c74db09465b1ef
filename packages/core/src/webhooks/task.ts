// Webhook delivery as a task of the scheduler: each run is one tick of the worker (claim what is
// due, up to the free slots, and prune if the hour is up). It runs again at once while it claims
// work and slots are free, and when a delivery ends (wake); a failed poll backs off, doubling the
// wait up to 30 s.
import type { ScheduledTask } from "../platform/scheduler/task.ts";
import type { WebhookWorker } from "./worker.ts";

export const WEBHOOK_DELIVERIES_TASK = "webhook-deliveries";
const POLL_BACKOFF_MAX_MS = 30_000;

export function webhookDeliveryTask(worker: WebhookWorker): ScheduledTask {
  return {
    name: WEBHOOK_DELIVERIES_TASK,
    intervalMs: worker.pollIntervalMs,
    maxBackoffMs: POLL_BACKOFF_MAX_MS,
    run: async () => ((await worker.tick()) > 0 && !worker.full ? "more" : undefined),
    stop: (graceMs) => worker.stop(graceMs),
    connect: (wake) => worker.connect(wake),
  };
}
