// The webhook delivery worker of this app instance: started once per process by the
// instrumentation hook (every instance runs one; they share the work through the database), and
// stopped by the server entry on SIGTERM/SIGINT through the process's shutdown hooks.
import { logger } from "@parley/core";
import { WebhookWorker } from "@parley/core/webhooks";
import { getDb } from "@parley/db";
import { appEnv } from "../env.ts";

const workerKey = Symbol.for("parley.webhookWorker");
/** Async callbacks the server entry (server.mjs) runs before exiting. */
const shutdownKey = Symbol.for("parley.shutdownHooks");
type GlobalWithWorker = typeof globalThis & {
  [workerKey]?: WebhookWorker;
  [shutdownKey]?: Set<() => Promise<void>>;
};

export async function startWebhookWorker(): Promise<WebhookWorker> {
  const store = globalThis as GlobalWithWorker;
  const running = store[workerKey];
  if (running) return running;
  const config = appEnv();
  if (config.WEBHOOKS_ALLOW_LOCAL) {
    logger.warn("WEBHOOKS_ALLOW_LOCAL is on: webhooks may go to http:// and private addresses (tests and development only)");
  }
  const worker = new WebhookWorker({ db: await getDb(), allowLocal: config.WEBHOOKS_ALLOW_LOCAL });
  store[workerKey] = worker;
  store[shutdownKey] ??= new Set();
  store[shutdownKey].add(() => stopWebhookWorker());
  worker.start();
  logger.info("webhook worker started");
  return worker;
}

export async function stopWebhookWorker(): Promise<void> {
  const store = globalThis as GlobalWithWorker;
  const worker = store[workerKey];
  if (!worker) return;
  store[workerKey] = undefined;
  await worker.stop();
  logger.info("webhook worker stopped");
}
