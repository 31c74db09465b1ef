// The webhook delivery worker of this app instance: started once per process by the
// instrumentation hook (every instance runs one; they share the work through the database), and
// stopped by the server entry on SIGTERM/SIGINT through the process's shutdown hooks.
import { logger } from "@parley/core";
import { RetentionTask } from "@parley/core/conversations";
import { EmbeddingIndexer, ImportRunner, LanguageDetectionTask, ScheduledPublisher } from "@parley/core/knowledge";
import { WebhookWorker } from "@parley/core/webhooks";
import { getDb } from "@parley/db";
import { appEnv } from "../env.ts";
import { processRegistry } from "./registry.ts";
import { getSemanticSearch } from "./semantic.ts";

export async function startWebhookWorker(): Promise<WebhookWorker> {
  const registry = processRegistry();
  if (registry.webhookWorker) return registry.webhookWorker;
  const config = appEnv();
  if (config.WEBHOOKS_ALLOW_LOCAL) {
    logger.warn("WEBHOOKS_ALLOW_LOCAL is on: webhooks may go to http:// and private addresses (tests and development only)");
  }
  const db = await getDb();
  const semantic = await getSemanticSearch();
  // The embeddings worker, article imports, scheduled publications, language detection of older
  // articles and retention run on this loop, never on a request; a lease row lets one instance of the cluster run each retention pass.
  const tasks = [
    new ScheduledPublisher({ db }),
    new RetentionTask({ db }),
    new LanguageDetectionTask({ db }),
    new ImportRunner({ db, allowLocal: config.WEBHOOKS_ALLOW_LOCAL }),
    ...(semantic ? [new EmbeddingIndexer({ db, embedder: semantic.embedder, vectorSearch: semantic.passages.setting })] : []),
  ];
  const worker = new WebhookWorker({ db, allowLocal: config.WEBHOOKS_ALLOW_LOCAL, tasks });
  registry.webhookWorker = worker;
  registry.shutdown.add(() => stopWebhookWorker());
  worker.start();
  logger.info("webhook worker started");
  return worker;
}

export async function stopWebhookWorker(): Promise<void> {
  const registry = processRegistry();
  const worker = registry.webhookWorker;
  if (!worker) return;
  registry.webhookWorker = undefined;
  await worker.stop();
  logger.info("webhook worker stopped");
}
