// The background tasks of this app instance, on one scheduler: started once per process by the
// start-up hook (every instance runs one; they share the work through the database), and stopped
// by the server entry on SIGTERM/SIGINT through the process's shutdown hooks. This is the one
// place that lists the tasks; each is declared (interval, lease) beside its feature in core.
import { logger } from "@parley/core";
import { RetentionTask, retentionTask, VisitorMailTask, visitorMailTask } from "@parley/core/conversations";
import { articleViewsTask } from "@parley/core/help";
import {
  EmbeddingIndexer,
  embeddingsTask,
  ImportRunner,
  importsTask,
  LanguageDetectionTask,
  languageDetectionTask,
  ScheduledPublisher,
  scheduledPublicationsTask,
} from "@parley/core/knowledge";
import { Scheduler } from "@parley/core/scheduler";
import { WebhookWorker, webhookDeliveryTask } from "@parley/core/webhooks";
import { createResumeTokens } from "@parley/core/widget";
import { getDb } from "@parley/db";
import { appEnv } from "../env.ts";
import { authSecret } from "./auth.ts";
import { getAppContext } from "./context.ts";
import { processRegistry } from "./registry.ts";
import { getSemanticSearch } from "./semantic.ts";

export async function startScheduler(): Promise<Scheduler> {
  const registry = processRegistry();
  if (registry.scheduler) return registry.scheduler;
  const config = appEnv();
  if (config.WEBHOOKS_ALLOW_LOCAL) {
    logger.warn("WEBHOOKS_ALLOW_LOCAL is on: webhooks may go to http:// and private addresses (tests and development only)");
  }
  const db = await getDb();
  const semantic = await getSemanticSearch();
  // Never on a request: deliveries, publications, retention (one instance of the cluster per
  // hour), language detection of older articles, imports, article views and, when configured, embeddings.
  const scheduler = new Scheduler({ db })
    .add(webhookDeliveryTask(new WebhookWorker({ db, allowLocal: config.WEBHOOKS_ALLOW_LOCAL })))
    .add(scheduledPublicationsTask(new ScheduledPublisher({ db })))
    .add(retentionTask(new RetentionTask({ db })))
    .add(languageDetectionTask(new LanguageDetectionTask({ db })))
    .add(importsTask(new ImportRunner({ db, allowLocal: config.WEBHOOKS_ALLOW_LOCAL })));
  const app = await getAppContext();
  // Help-centre article views, counted in memory by the reads, stored every few seconds and at shutdown.
  if (app.articleViews) scheduler.add(articleViewsTask(app.articleViews));
  // Replies written while the visitor was away, mailed in batches (only when SMTP_URL is set).
  if (app.mailer) scheduler.add(visitorMailTask(new VisitorMailTask(app, createResumeTokens(authSecret()))));
  if (semantic) {
    scheduler.add(embeddingsTask(new EmbeddingIndexer({ db, embedder: semantic.embedder, vectorSearch: semantic.passages.setting })));
  }
  registry.scheduler = scheduler;
  registry.shutdown.add(() => stopScheduler());
  scheduler.start();
  logger.info("background tasks started", { instance: scheduler.name, tasks: scheduler.taskNames });
  return scheduler;
}

export async function stopScheduler(): Promise<void> {
  const registry = processRegistry();
  const scheduler = registry.scheduler;
  if (!scheduler) return;
  registry.scheduler = undefined;
  await scheduler.stop();
  logger.info("background tasks stopped");
}
