// The webhook worker's housekeeping: on its first pass and then once an hour it deletes expired
// idempotency records (and webhook events past retention), logs one line with the counts, and a
// failed delete is logged without stopping deliveries. Real database (PGlite, or PostgreSQL
// with DATABASE_URL).

import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IDEMPOTENCY_TTL_HOURS } from "../src/platform/limits.ts";
import { configureLogging } from "../src/platform/logger.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";
import { WEBHOOK_RETENTION_DAYS } from "../src/webhooks/limits.ts";
import { webhookDeliveryTask } from "../src/webhooks/task.ts";
import { WebhookWorker } from "../src/webhooks/worker.ts";

const HOUR = 3_600_000;
const NOW = new Date("2026-03-01T12:00:00Z");
const AGENT = "prune-agent";

let ctx: TestContext;
let clock = NOW;
const workers: Array<WebhookWorker | Scheduler> = [];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.prisma.workspace.create({ data: { id: "prune-ws", name: "Prune" } });
  await ctx.db.prisma.agent.create({ data: { id: AGENT, workspaceId: "prune-ws", name: "Prune agent" } });
});

afterAll(async () => {
  await ctx.close();
});

let logLines: Array<Record<string, unknown>>;

beforeEach(() => {
  clock = NOW;
  logLines = [];
  configureLogging({ level: "info" });
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});

afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop(0);
  vi.restoreAllMocks();
  configureLogging({ level: "silent" });
  await ctx.db.prisma.idempotencyRecord.deleteMany({});
  await ctx.db.prisma.webhookEvent.deleteMany({});
});

function worker(): WebhookWorker {
  const created = new WebhookWorker({ db: ctx.db, now: () => clock, name: "prune-test", pollIntervalMs: 10 });
  workers.push(created);
  return created;
}

async function record(key: string, ageMs: number): Promise<void> {
  await ctx.db.prisma.idempotencyRecord.create({
    data: { agentId: AGENT, key, requestHash: "h", status: 200, body: {}, createdAt: new Date(clock.getTime() - ageMs) },
  });
}

async function keys(): Promise<string[]> {
  const rows = await ctx.db.prisma.idempotencyRecord.findMany({ select: { key: true }, orderBy: { key: "asc" } });
  return rows.map((row) => row.key);
}

const ttl = IDEMPOTENCY_TTL_HOURS * HOUR;

describe("the worker prunes idempotency records", () => {
  it("deletes expired records and keeps live ones on its first pass, and logs one line with the count", async () => {
    await record("expired-long-ago", 10 * ttl);
    await record("expired-just", ttl);
    await record("fresh", ttl - 60_000);
    await record("new", 0);

    expect(await worker().tick()).toBe(0);

    expect(await keys()).toEqual(["fresh", "new"]);
    const pruned = logLines.filter((line) => line.message === "expired records pruned");
    expect(pruned).toEqual([expect.objectContaining({ level: "info", worker: "prune-test", idempotencyRecords: 2, webhookEvents: 0 })]);
  });

  it("prunes again only once an hour has passed", async () => {
    const pruner = worker();
    await pruner.tick();
    await record("expired", ttl + 1);

    clock = new Date(NOW.getTime() + HOUR - 1);
    await pruner.tick();
    expect(await keys()).toEqual(["expired"]);

    clock = new Date(NOW.getTime() + HOUR);
    await pruner.tick();
    expect(await keys()).toEqual([]);
    expect(logLines.filter((line) => line.message === "expired records pruned").map((line) => line.idempotencyRecords)).toEqual([0, 1]);
  });

  it("prunes when started, before any delivery is due", async () => {
    await record("expired", ttl + 1);
    await record("fresh", 0);
    const scheduler = new Scheduler({ db: ctx.db }).add(webhookDeliveryTask(worker())).start();
    workers.push(scheduler);
    await vi.waitFor(async () => expect(await keys()).toEqual(["fresh"]), { timeout: 5_000, interval: 20 });
  });

  it("also deletes webhook events past retention", async () => {
    const event = (id: string, ageMs: number) => ({
      id,
      workspaceId: "prune-ws",
      type: "conversation.message",
      payload: "{}",
      createdAt: new Date(NOW.getTime() - ageMs),
    });
    await ctx.db.prisma.webhookEvent.createMany({
      data: [event("old-event", WEBHOOK_RETENTION_DAYS * 24 * HOUR + 1), event("recent-event", HOUR)],
    });
    await worker().tick();
    const rows = await ctx.db.prisma.webhookEvent.findMany({ select: { id: true } });
    expect(rows.map((row) => row.id)).toEqual(["recent-event"]);
  });

  it("logs a failed prune and goes on: the pass succeeds and the other records are still pruned", async () => {
    await record("expired", ttl + 1);
    // A real database failure: the table is briefly missing.
    await ctx.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecord" RENAME TO "IdempotencyRecordAway"`);
    try {
      await expect(worker().tick()).resolves.toBe(0);
    } finally {
      await ctx.db.prisma.$executeRawUnsafe(`ALTER TABLE "IdempotencyRecordAway" RENAME TO "IdempotencyRecord"`);
    }
    const failure = logLines.find((line) => line.message === "pruning idempotency records failed");
    expect(failure).toMatchObject({ level: "error", worker: "prune-test" });
    expect(String(failure?.error)).not.toContain("\n");
    expect(String(failure?.error)).not.toMatch(/\bat .*:\d+:\d+/);
    const pruned = logLines.filter((line) => line.message === "expired records pruned");
    expect(pruned).toEqual([expect.objectContaining({ webhookEvents: 0 })]);
    expect(pruned[0]).not.toHaveProperty("idempotencyRecords");
    expect(await keys()).toEqual(["expired"]);
  });
});
