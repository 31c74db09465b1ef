// A webhook worker in a process of its own (the crash test SIGKILLs it mid-delivery): connects to
// the PostgreSQL database given as argv[2], prints "ready" once started, and runs until killed.

import { configureLogging } from "@parley/core";
import { Scheduler } from "@parley/core/scheduler";
import { WebhookWorker, webhookDeliveryTask } from "@parley/core/webhooks";
import { openDatabase } from "@parley/db";

configureLogging({ level: "silent" });
const url = process.argv[2];
if (!url) throw new Error("usage: worker-process.ts <postgres url> <timeout ms> <lease ms>");
const db = await openDatabase({ url, poolSize: 4 });
const worker = new WebhookWorker({
  db,
  allowLocal: true,
  timeoutMs: Number(process.argv[3] ?? 1_500),
  leaseMs: Number(process.argv[4] ?? 2_000),
  pollIntervalMs: 10,
  concurrency: 4,
});
new Scheduler({ db }).add(webhookDeliveryTask(worker)).start();
process.stdout.write("ready\n");
