// Webhook delivery: a local receiver verifies every delivery with the third-party
// `standardwebhooks` package. Retries keep the webhook-id and re-sign; 410 disables; a worker
// killed mid-delivery leaves leases that another worker takes over (each event acknowledged
// once); two workers never hold one delivery at once; the SSRF guard; secret rolls. Real
// database, either mode (PGlite by default, PostgreSQL with DATABASE_URL).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@parley/db";
import { createTestContext, messagingAgent, type TestContext } from "@parley/testing/context";
import { type ReceivedRequest, type Receiver, startReceiver } from "@parley/testing/webhook-receiver";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runTurn } from "../src/conversations/turn/turn.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";
import {
  BlockedUrlError,
  checkWebhookUrl,
  isBlockedAddress,
  parseWebhookUrl,
  type Resolver,
  resolveWebhookTarget,
  webhookUrlHint,
} from "../src/platform/url-guard.ts";
import { createEndpoint, rollEndpointSecret } from "../src/webhooks/endpoints.ts";
import { eventBody, recordWebhookEvents, type WebhookEventInput } from "../src/webhooks/events.ts";
import { generateWebhookSecret, signingSecrets, signWebhook, webhookHeaders } from "../src/webhooks/signing.ts";
import { webhookDeliveryTask } from "../src/webhooks/task.ts";
import { WEBHOOK_EVENT_TYPES } from "../src/webhooks/types.ts";
import { WebhookWorker, type WebhookWorkerOptions } from "../src/webhooks/worker.ts";

let ctx: TestContext;
const WORKSPACE = "wh-ws";
const ADMIN = { userId: "wh-admin", workspaceId: WORKSPACE, role: "owner" } as const;
const AGENT = "wh-agent";
const OTHER_AGENT = "wh-agent-2";
const local = { allowLocal: true, resolve: async () => ["127.0.0.1"] };

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.prisma.workspace.create({ data: { id: WORKSPACE, name: "Webhooks" } });
  await ctx.db.prisma.user.create({
    data: { id: ADMIN.userId, workspaceId: WORKSPACE, email: "wh-admin@example.com", passwordHash: "unused" },
  });
  await ctx.db.prisma.agent.createMany({
    data: [
      { id: AGENT, workspaceId: WORKSPACE, name: "Webhook agent" },
      { id: OTHER_AGENT, workspaceId: WORKSPACE, name: "Other agent" },
    ],
  });
});

afterAll(async () => {
  await ctx.close();
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await ctx.db.prisma.webhookEvent.deleteMany({});
  await ctx.db.prisma.webhookEndpoint.deleteMany({});
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(respond);
  cleanups.push(() => started.close());
  return started;
}

/** Retries a minute apart (drain() then stops at the first failure); tests of retries pass `fast`. */
const slow = [60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000];
const fast = [20, 20, 20, 20, 20, 20, 20];

function worker(options: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  const created = new WebhookWorker({
    db: ctx.db,
    allowLocal: true,
    retryDelaysMs: slow,
    jitter: 0,
    pollIntervalMs: 10,
    timeoutMs: 2_000,
    leaseMs: 5_000,
    ...options,
  });
  cleanups.push(() => created.stop(0));
  return created;
}

/** The worker running as an app instance runs it: the delivery task of a scheduler of its own. */
function scheduled(deliveries: WebhookWorker): Scheduler {
  const scheduler = new Scheduler({ db: ctx.db }).add(webhookDeliveryTask(deliveries)).start();
  cleanups.push(() => scheduler.stop(0));
  return scheduler;
}

async function endpoint(url: string, fields: { agentIds?: string[]; eventTypes?: string[] } = {}) {
  return createEndpoint(
    ctx.db,
    ADMIN,
    {
      url,
      description: "",
      allAgents: !fields.agentIds,
      agentIds: fields.agentIds ?? [],
      eventTypes: (fields.eventTypes ?? [...WEBHOOK_EVENT_TYPES]) as (typeof WEBHOOK_EVENT_TYPES)[number][],
      enabled: true,
    },
    { policy: local, now: new Date() },
  );
}

/** Records `count` conversation.message events of AGENT (one transaction each); returns the event ids. */
async function emit(count = 1, data: Record<string, unknown> = {}): Promise<string[]> {
  const before = new Set((await ctx.db.prisma.webhookEvent.findMany({ select: { id: true } })).map((row) => row.id));
  for (let index = 0; index < count; index += 1) {
    const events: WebhookEventInput[] = [{ type: "conversation.message", data: { index, ...data } }];
    await ctx.db.prisma.$transaction((tx) => recordWebhookEvents(tx, { workspaceId: WORKSPACE, agentIds: [AGENT] }, events, new Date()));
  }
  const rows = await ctx.db.prisma.webhookEvent.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id).filter((id) => !before.has(id));
}

/** standardwebhooks' verification of a received request (throws WebhookVerificationError). */
function verify(secret: string, request: Pick<ReceivedRequest, "body" | "headers">): unknown {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

async function deliveryOf(eventId: string) {
  return ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId }, include: { attemptLog: { orderBy: { number: "asc" } } } });
}

describe("signing", () => {
  it("makes whsec_ secrets of at least 24 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it("signs exactly as the standardwebhooks package does", () => {
    const secret = generateWebhookSecret();
    const at = new Date("2026-11-20T12:00:00.000Z");
    const body = eventBody("conversation.created", at, { conversation: { id: "c1" } });
    expect(signWebhook(secret, "evt_1", Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign("evt_1", at, body));
  });

  it("signs with both secrets during a roll and with the new one only after 24 hours", () => {
    const rolledAt = new Date("2026-11-20T12:00:00.000Z");
    const endpoint = {
      secret: generateWebhookSecret(),
      previousSecret: generateWebhookSecret(),
      previousSecretExpiresAt: new Date(rolledAt.getTime() + 24 * 3_600_000),
    };
    expect(signingSecrets(endpoint, rolledAt)).toEqual([endpoint.secret, endpoint.previousSecret]);
    expect(signingSecrets(endpoint, new Date(rolledAt.getTime() + 24 * 3_600_000))).toEqual([endpoint.secret]);
    const headers = webhookHeaders(signingSecrets(endpoint, rolledAt), "evt_2", new Date(), "{}");
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
  });
});

describe("delivery", () => {
  it("POSTs {type, timestamp, data} with Standard Webhooks headers that standardwebhooks verifies; a wrong secret fails", async () => {
    const hooks = await receiver();
    const { secret } = await endpoint(hooks.url);
    const [eventId] = await emit(1, { hello: "world" });
    await worker().drain();

    expect(hooks.requests).toHaveLength(1);
    const request = hooks.requests[0]!;
    expect(request.id).toBe(eventId);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(Number(request.timestamp)).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(request.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = verify(secret, request) as { type: string; timestamp: string; data: unknown };
    expect(Object.keys(payload)).toEqual(["type", "timestamp", "data"]);
    expect(payload).toMatchObject({ type: "conversation.message", data: { index: 0, hello: "world" } });
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);

    expect(() => verify(generateWebhookSecret(), request)).toThrow(WebhookVerificationError);
    expect(() => verify(secret, { ...request, body: request.body.replace("world", "w0rld") })).toThrow(WebhookVerificationError);

    const delivery = await deliveryOf(eventId!);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, lastStatus: 200, nextAttemptAt: null, claimToken: null });
    expect(delivery.deliveredAt).not.toBeNull();
    expect(delivery.lastLatencyMs).toBeGreaterThanOrEqual(0);
    expect(delivery.attemptLog).toHaveLength(1);
    expect(delivery.attemptLog[0]).toMatchObject({ number: 1, status: 200, responseBody: "ok" });
  });

  it("retries after 500s, then succeeds: the same webhook-id every time, with fresh timestamps and signatures", async () => {
    // The worker's clock jumps a second ahead on every request, so each attempt has its own timestamp.
    let skewMs = 0;
    const hooks = await receiver((request) => {
      skewMs += 1_000;
      return { status: request.index < 2 ? 500 : 200 };
    });
    const { secret } = await endpoint(hooks.url);
    const [eventId] = await emit();
    const running = scheduled(worker({ retryDelaysMs: fast, now: () => new Date(Date.now() + skewMs) }));
    await hooks.waitFor(() => hooks.requests.some((request) => request.answered === 200));
    await running.stop();

    expect(hooks.requests.map((request) => request.answered)).toEqual([500, 500, 200]);
    expect(new Set(hooks.requests.map((request) => request.id))).toEqual(new Set([eventId]));
    expect(new Set(hooks.requests.map((request) => request.timestamp)).size).toBe(3);
    expect(new Set(hooks.requests.map((request) => request.signature)).size).toBe(3);
    expect(new Set(hooks.requests.map((request) => request.body)).size).toBe(1);
    for (const request of hooks.requests) expect(verify(secret, request)).toMatchObject({ type: "conversation.message" });

    const delivery = await deliveryOf(eventId!);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, lastStatus: 200 });
    expect(delivery.attemptLog.map((attempt) => [attempt.number, attempt.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it("schedules retries at about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with jitter, and honours Retry-After", () => {
    const hours = 3_600_000;
    const expected = [5_000, 300_000, 1_800_000, 2 * hours, 5 * hours, 10 * hours, 10 * hours];
    const mid = new WebhookWorker({ db: ctx.db, random: () => 0.5 });
    const low = new WebhookWorker({ db: ctx.db, random: () => 0 });
    const high = new WebhookWorker({ db: ctx.db, random: () => 0.999999 });
    expected.forEach((delay, index) => {
      expect(mid.retryDelay(index + 1, null)).toBe(delay);
      expect(low.retryDelay(index + 1, null)).toBe(Math.round(delay * 0.9));
      expect(high.retryDelay(index + 1, null)).toBeLessThanOrEqual(Math.round(delay * 1.1));
      expect(high.retryDelay(index + 1, null)).toBeGreaterThan(delay);
    });
    // Retry-After wins when it asks for longer, and is capped at a day.
    expect(mid.retryDelay(1, 120_000)).toBe(120_000);
    expect(mid.retryDelay(3, 120_000)).toBe(1_800_000);
    expect(mid.retryDelay(1, 7 * 24 * hours)).toBe(24 * hours);
  });

  it("waits as long as Retry-After asks, and fails the delivery after the last retry", async () => {
    const hooks = await receiver(() => ({ status: 503, headers: { "retry-after": "120" } }));
    await endpoint(hooks.url);
    const [eventId] = await emit();
    const started = Date.now();
    await worker().drain();
    const delivery = await deliveryOf(eventId!);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatus: 503 });
    expect(delivery.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(started + 119_000);

    // Without Retry-After: 1 attempt + 7 retries, then failed for good.
    hooks.respond = () => ({ status: 500 });
    await ctx.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    const retrying = scheduled(worker({ retryDelaysMs: fast }));
    await hooks.waitFor(() => hooks.requests.length === 8);
    await expect.poll(async () => (await deliveryOf(eventId!)).status, { timeout: 5_000 }).toBe("failed");
    await retrying.stop();
    const failed = await deliveryOf(eventId!);
    expect(failed).toMatchObject({ attempts: 8, nextAttemptAt: null, lastStatus: 500 });
    expect(hooks.requests).toHaveLength(8);
  });

  it("counts timeouts and connection errors as failed attempts", async () => {
    const hooks = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    await endpoint(hooks.url);
    const [eventId] = await emit();
    await worker({ timeoutMs: 100, leaseMs: 5_000 }).drain();
    const delivery = await deliveryOf(eventId!);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatus: null });
    expect(delivery.lastError).toMatch(/Timed out/);

    await ctx.db.prisma.webhookEndpoint.updateMany({ data: { url: "http://127.0.0.1:9/closed" } });
    await ctx.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    await worker().drain();
    expect((await deliveryOf(eventId!)).lastError).toMatch(/ECONNREFUSED/);
  });

  it("disables the endpoint on 410 Gone and queues nothing more for it", async () => {
    const hooks = await receiver(() => ({ status: 410 }));
    const { endpoint: created } = await endpoint(hooks.url);
    const [first, second] = await emit(2);
    await worker({ concurrency: 1 }).drain();

    expect(hooks.requests).toHaveLength(1);
    const row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ enabled: false, disabledReason: "gone" });
    expect(row.disabledAt).not.toBeNull();
    const gone = await deliveryOf(hooks.requests[0]!.id);
    expect(gone).toMatchObject({ status: "failed", attempts: 1, lastStatus: 410, nextAttemptAt: null });
    // The other delivery waits (the endpoint is disabled), and new events are not queued for it.
    const other = await deliveryOf(hooks.requests[0]!.id === first ? second! : first!);
    expect(other).toMatchObject({ status: "pending", attempts: 0 });
    expect(await emit()).toEqual([]);
  });

  it("disables and flags an endpoint that has been failing for 3 days; a success clears the failing flag", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const { endpoint: created } = await endpoint(hooks.url);
    await emit();
    await worker().drain();
    let row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.enabled).toBe(true);
    expect(row.failingSince).not.toBeNull();

    hooks.respond = () => ({ status: 204 });
    await ctx.db.prisma.webhookDelivery.updateMany({ data: { nextAttemptAt: new Date() } });
    await worker().drain();
    row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.failingSince).toBeNull();

    hooks.respond = () => ({ status: 500 });
    await ctx.db.prisma.webhookEndpoint.update({
      where: { id: created.id },
      data: { failingSince: new Date(Date.now() - 3 * 24 * 3_600_000 - 60_000) },
    });
    await emit();
    await worker().drain();
    row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ enabled: false, disabledReason: "failing" });
  });

  it("sends a roll's two signatures, each valid for its own secret, for 24 hours", async () => {
    const hooks = await receiver();
    const { endpoint: created, secret: oldSecret } = await endpoint(hooks.url);
    const { secret: newSecret, endpoint: rolled } = await rollEndpointSecret(ctx.db, ADMIN, created.id, new Date());
    expect(newSecret).not.toBe(oldSecret);
    expect(rolled.previousSecretValidUntil).not.toBeNull();
    await emit();
    await worker().drain();

    const request = hooks.requests[0]!;
    const signatures = request.signature.split(" ");
    expect(signatures).toHaveLength(2);
    expect(verify(newSecret, request)).toBeTruthy();
    expect(verify(oldSecret, request)).toBeTruthy();
    // Each signature on its own: the first is the new secret's, the second the old one's.
    expect(verify(newSecret, { ...request, headers: { ...request.headers, "webhook-signature": signatures[0] } })).toBeTruthy();
    expect(verify(oldSecret, { ...request, headers: { ...request.headers, "webhook-signature": signatures[1] } })).toBeTruthy();
    expect(() => verify(generateWebhookSecret(), request)).toThrow(WebhookVerificationError);

    // A day later only the new secret signs.
    await emit();
    await worker({ now: () => new Date(Date.now() + 24 * 3_600_000 + 1_000) }).drain();
    const later = hooks.requests[1]!;
    expect(later.signature.split(" ")).toHaveLength(1);
    // (Its timestamp is a day ahead of the real clock, beyond standardwebhooks' tolerance: compare directly.)
    expect(later.signature).toBe(signWebhook(newSecret, later.id, Number(later.timestamp), later.body));
    expect(later.signature).not.toBe(signWebhook(oldSecret, later.id, Number(later.timestamp), later.body));
  });

  it("delivers only the event types and agents an endpoint takes", async () => {
    const hooks = await receiver();
    await endpoint(hooks.url, { agentIds: [OTHER_AGENT], eventTypes: ["conversation.message"] });
    await emit(); // AGENT's event: not for this endpoint
    await ctx.db.prisma.$transaction((tx) =>
      recordWebhookEvents(
        tx,
        { agentId: OTHER_AGENT, agentIds: [OTHER_AGENT] },
        [
          { type: "conversation.created", data: {} },
          { type: "conversation.message", data: {} },
        ],
        new Date(),
      ),
    );
    await worker().drain();
    expect(hooks.requests.map((request) => (JSON.parse(request.body) as { type: string }).type)).toEqual(["conversation.message"]);
    expect(await ctx.db.prisma.webhookEvent.count()).toBe(1);
  });
});

describe("workers", () => {
  it("a worker killed mid-delivery leaves its claims to another worker: each event is acknowledged once, by id", async () => {
    let serving = false;
    const hooks = await receiver(() => (serving ? { status: 200 } : { status: 200, hang: true }));
    const { secret } = await endpoint(hooks.url);
    const eventIds = await emit(6);

    // Attempts time out after 1.5 s, claims last 2 s (a lease always outlives its attempt).
    const first = worker({ concurrency: 4, timeoutMs: 1_500, leaseMs: 2_000 });
    scheduled(first);
    await hooks.waitFor(() => hooks.requests.length === 4);
    first.kill();
    await hooks.waitFor(() => hooks.inFlight.size === 0);
    serving = true;
    // The 4 claimed deliveries are still leased; a new worker (the restarted process) takes the 2
    // others at once and the 4 when their leases expire.
    const claimed = await ctx.db.prisma.webhookDelivery.count({ where: { lockedUntil: { gt: new Date() }, attempts: 1 } });
    expect(claimed).toBe(4);
    const second = scheduled(worker({ concurrency: 4, timeoutMs: 1_500, leaseMs: 2_000 }));
    await hooks.waitFor(() => new Set(hooks.requests.filter((r) => r.answered === 200).map((r) => r.id)).size === 6, 10_000);
    await second.stop();

    const acknowledged = hooks.requests.filter((request) => request.answered === 200);
    expect(acknowledged.map((request) => request.id).sort()).toEqual([...eventIds].sort());
    // The receiver saw the 4 interrupted ones twice, with the same webhook-id (what it dedupes by).
    const seen = new Map<string, number>();
    for (const request of hooks.requests) seen.set(request.id, (seen.get(request.id) ?? 0) + 1);
    expect([...seen.values()].sort()).toEqual([1, 1, 2, 2, 2, 2]);
    for (const request of acknowledged) expect(verify(secret, request)).toBeTruthy();

    const deliveries = await ctx.db.prisma.webhookDelivery.findMany({ include: { attemptLog: true } });
    expect(deliveries.every((delivery) => delivery.status === "succeeded")).toBe(true);
    // The killed worker wrote nothing after its death: every logged attempt is the second worker's.
    const interrupted = deliveries.filter((delivery) => delivery.attempts === 2);
    expect(interrupted).toHaveLength(4);
    for (const delivery of interrupted) expect(delivery.attemptLog.map((attempt) => attempt.number)).toEqual([2]);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "PostgreSQL: a worker process SIGKILLed mid-delivery is taken over once its leases expire; each event acknowledged once",
    async () => {
      let serving = false;
      const hooks = await receiver(() => (serving ? { status: 200 } : { status: 200, hang: true }));
      await endpoint(hooks.url);
      const eventIds = await emit(3);
      const child = spawn(
        process.execPath,
        // A timeout far longer than the kill takes, so the killed worker never records a failed
        // attempt first (on a loaded machine its three requests can arrive over more than a second).
        ["--import", "tsx", fileURLToPath(import.meta.resolve("@parley/testing/worker-process")), ctx.db.url!, "6000", "6500"],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        await exited;
      });
      await hooks.waitFor(() => hooks.requests.length === 3, 20_000);
      child.kill("SIGKILL");
      await exited;
      await hooks.waitFor(() => hooks.inFlight.size === 0);
      serving = true;

      const restarted = scheduled(worker({ timeoutMs: 1_500, leaseMs: 2_000 }));
      // Taken over once the killed worker's leases (6.5 s) expire.
      await hooks.waitFor(() => hooks.requests.filter((request) => request.answered === 200).length === 3, 20_000);
      await restarted.stop();
      const acknowledged = hooks.requests.filter((request) => request.answered === 200).map((request) => request.id);
      expect(acknowledged.sort()).toEqual([...eventIds].sort());
      expect(hooks.requests).toHaveLength(6);
      const deliveries = await ctx.db.prisma.webhookDelivery.findMany();
      expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
        ["succeeded", 2],
        ["succeeded", 2],
        ["succeeded", 2],
      ]);
    },
  );

  it("stop() lets deliveries in flight finish, or releases them for another worker", async () => {
    const hooks = await receiver(() => ({ status: 200, hang: true }));
    await endpoint(hooks.url);
    const [eventId] = await emit();
    const running = worker({ leaseMs: 60_000 });
    const scheduler = scheduled(running);
    await hooks.waitFor(() => hooks.requests.length === 1);
    await scheduler.stop(50);
    expect(running.activeDeliveries).toBe(0);
    // Released: not leased, the attempt not counted, due at once.
    const delivery = await deliveryOf(eventId!);
    expect(delivery).toMatchObject({ status: "pending", attempts: 0, lockedUntil: null, claimToken: null });
    hooks.respond = () => ({ status: 200 });
    await worker().drain();
    expect((await deliveryOf(eventId!)).status).toBe("succeeded");
  });

  it("two workers on one database never deliver one event twice at the same time", async () => {
    const overlaps: string[] = [];
    const hooks = await receiver((request) => {
      if ((hooks.inFlight.get(request.id) ?? 0) > 1) overlaps.push(request.id);
      return { status: 200, delayMs: 5 + Math.floor(Math.random() * 20) };
    });
    await endpoint(hooks.url);
    const eventIds = await emit(40);
    // On PostgreSQL the second worker has its own connection pool, as another instance would.
    const otherDb = ctx.db.url ? await openDatabase({ url: ctx.db.url, poolSize: 4 }) : ctx.db;
    if (otherDb !== ctx.db) cleanups.push(() => otherDb.close());
    const one = scheduled(worker({ concurrency: 4, name: "one" }));
    const two = scheduled(worker({ db: otherDb, concurrency: 4, name: "two" }));
    await hooks.waitFor(() => hooks.requests.filter((request) => request.answered === 200).length === 40, 20_000);
    await Promise.all([one.stop(), two.stop()]);

    expect(overlaps).toEqual([]);
    expect(hooks.requests).toHaveLength(40);
    expect(hooks.requests.map((request) => request.id).sort()).toEqual([...eventIds].sort());
    const attempts = await ctx.db.prisma.webhookDelivery.findMany({ select: { attempts: true, status: true } });
    expect(attempts.every((row) => row.attempts === 1 && row.status === "succeeded")).toBe(true);
  });

  it("concurrent claims on one database split the due deliveries without overlap", async () => {
    await endpoint("http://127.0.0.1:9/unused");
    await emit(30);
    const otherDb = ctx.db.url ? await openDatabase({ url: ctx.db.url, poolSize: 4 }) : ctx.db;
    if (otherDb !== ctx.db) cleanups.push(() => otherDb.close());
    const a = worker();
    const b = worker({ db: otherDb });
    const batches = await Promise.all([a.claim(10), b.claim(10), a.claim(10), b.claim(10)]);
    const ids = batches.flat().map((item) => item.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});

describe("SSRF guard", () => {
  const policy = (resolve: Resolver) => ({ allowLocal: false, resolve });
  const resolver: Resolver = async (host) => {
    const table: Record<string, string[]> = {
      "loopback.example": ["127.0.0.1"],
      "private.example": ["93.184.216.34", "10.1.2.3"],
      "metadata.example": ["169.254.169.254"],
      "v6.example": ["fd00::1"],
      "public.example": ["93.184.216.34"],
    };
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses;
  };

  it("classifies addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "10.255.1.2",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fd00::1",
      "fc00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "ff02::1",
      "not-an-ip",
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450:4001::200e"]) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });

  // Every IPv6 form that carries an IPv4 address (or is not global unicast at all) is refused,
  // whatever the IPv4 address: a public host never needs one, and some reach the private one.
  it.each([
    ["::127.0.0.1", "IPv4-compatible (::/96), loopback"],
    ["::7f00:1", "IPv4-compatible, loopback in hex"],
    ["::a9fe:a9fe", "IPv4-compatible, 169.254.169.254 (cloud metadata)"],
    ["::10.0.0.1", "IPv4-compatible, private"],
    ["::8.8.8.8", "IPv4-compatible, public"],
    ["::ffff:169.254.169.254", "IPv4-mapped (::ffff:0:0/96)"],
    ["::ffff:8.8.8.8", "IPv4-mapped, public"],
    ["::ffff:0:127.0.0.1", "IPv4-translated (::ffff:0:0:0/96)"],
    ["64:ff9b::127.0.0.1", "NAT64 (64:ff9b::/96), loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64, metadata"],
    ["64:ff9b:1::a00:1", "local-use NAT64 (64:ff9b:1::/48)"],
    ["2002:7f00:1::", "6to4 (2002::/16) of 127.0.0.1"],
    ["2002:a9fe:a9fe::1", "6to4 of 169.254.169.254"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo (2001::/32), client 127.0.0.1"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (3fff::/20)"],
    ["100::1", "discard"],
    ["fec0::1", "site-local"],
    ["5f00::1", "segment routing"],
    ["::2", "reserved ::/8"],
    ["4000::1", "not allocated (outside 2000::/3)"],
    ["fe80::1%eth0", "link-local with a zone"],
  ])("refuses %s (%s)", async (address) => {
    expect(isBlockedAddress(address)).toBe(true);
    const host = address.replace(/%.*$/, "");
    await expect(checkWebhookUrl(`https://[${host}]/hook`, policy(resolver))).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(
      checkWebhookUrl(
        "https://embedded.example/hook",
        policy(async () => [address]),
      ),
    ).rejects.toThrow(/private, loopback or link-local/);
  });

  it("names the setting that allows local addresses, in the refusal and in the form's hint", async () => {
    const local = /Local addresses are allowed only while the server runs with WEBHOOKS_ALLOW_LOCAL=true/;
    expect(() => parseWebhookUrl("https://127.0.0.1/hook", { allowLocal: false })).toThrow(local);
    await expect(
      checkWebhookUrl(
        "https://intranet.example/hook",
        policy(async () => ["10.0.0.7"]),
      ),
    ).rejects.toThrow(local);
    expect(webhookUrlHint({})).toBe(
      "An https:// URL of your server. Private, loopback and link-local addresses are refused. Local addresses are allowed only while the server runs with WEBHOOKS_ALLOW_LOCAL=true (for development).",
    );
    expect(webhookUrlHint({ webhooks: { allowLocal: true } })).toBe(
      "An http:// or https:// URL of your server. Local addresses are allowed: the server runs with WEBHOOKS_ALLOW_LOCAL=true.",
    );
  });

  it.each([["2606:4700:4700::1111"], ["2a00:1450:4001::200e"], ["2001:4860:4860::8888"], ["2620:fe::fe"], ["8.8.8.8"], ["1.1.1.1"]])(
    "accepts the public address %s",
    async (address) => {
      expect(isBlockedAddress(address)).toBe(false);
      expect(
        await checkWebhookUrl(
          "https://public6.example/hook",
          policy(async () => [address]),
        ),
      ).toBe("https://public6.example/hook");
    },
  );

  it("refuses http, credentials and local literal addresses when saving a URL", async () => {
    for (const url of [
      "http://public.example/hook",
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[fd12::1]/hook",
      "https://2130706433/hook", // 127.0.0.1 in decimal
      "https://localhost/hook",
      "https://user:pass@public.example/hook",
      "ftp://public.example/hook",
      "not a url",
    ]) {
      await expect(checkWebhookUrl(url, policy(resolver)), url).rejects.toBeInstanceOf(BlockedUrlError);
    }
    expect(await checkWebhookUrl("https://public.example/hook", policy(resolver))).toBe("https://public.example/hook");
    // Not resolvable yet: accepted (checked again on every attempt).
    expect(await checkWebhookUrl("https://unknown.example/hook", policy(resolver))).toBe("https://unknown.example/hook");
  });

  it("refuses host names that resolve to 127.0.0.1, 10.x, 169.254.x or unique-local addresses", async () => {
    for (const host of ["loopback.example", "private.example", "metadata.example", "v6.example"]) {
      await expect(checkWebhookUrl(`https://${host}/hook`, policy(resolver)), host).rejects.toThrow(/private, loopback or link-local/);
      await expect(resolveWebhookTarget(new URL(`https://${host}/hook`), policy(resolver)), host).rejects.toBeInstanceOf(BlockedUrlError);
    }
    expect(await resolveWebhookTarget(new URL("https://public.example/hook"), policy(resolver))).toEqual(["93.184.216.34"]);
  });

  it("allows local http targets only with allowLocal (WEBHOOKS_ALLOW_LOCAL)", async () => {
    expect(() => parseWebhookUrl("http://127.0.0.1:8080/hook", { allowLocal: false })).toThrow(BlockedUrlError);
    expect(parseWebhookUrl("http://127.0.0.1:8080/hook", { allowLocal: true }).toString()).toBe("http://127.0.0.1:8080/hook");
  });

  it("checks the resolved addresses again at delivery time (a host that now resolves to a private address gets nothing)", async () => {
    const hooks = await receiver();
    // Saved while it resolved to a public address...
    const port = new URL(hooks.url).port;
    const { endpoint: created } = await createEndpoint(
      ctx.db,
      ADMIN,
      {
        url: `https://rebind.example:${port}/hooks`,
        description: "",
        allAgents: true,
        agentIds: [],
        eventTypes: ["conversation.message"],
        enabled: true,
      },
      { policy: policy(async () => ["93.184.216.34"]), now: new Date() },
    );
    const [eventId] = await emit();
    // ...and now resolves to loopback, 10.x and 169.254.x in turn.
    for (const address of ["127.0.0.1", "10.0.0.7", "169.254.169.254"]) {
      await ctx.db.prisma.webhookDelivery.updateMany({ data: { nextAttemptAt: new Date() } });
      await worker({ allowLocal: false, resolve: async () => [address] }).drain();
      const delivery = await deliveryOf(eventId!);
      expect(delivery.lastStatus).toBeNull();
      expect(delivery.lastError).toMatch(/resolves to a private, loopback or link-local address/);
    }
    // An IP literal stored directly (bypassing the panel) is refused too.
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: created.id }, data: { url: hooks.url.replace("http:", "https:") } });
    await ctx.db.prisma.webhookDelivery.updateMany({ data: { nextAttemptAt: new Date() } });
    await worker({ allowLocal: false }).drain();
    expect((await deliveryOf(eventId!)).lastError).toMatch(/private, loopback or link-local/);
    expect(hooks.requests).toHaveLength(0);
  });
});

describe("end to end", () => {
  it("a widget-channel turn reaches the receiver, verified; an HTTP API turn sends nothing", async () => {
    const hooks = await receiver();
    const { secret } = await endpoint(hooks.url);
    const agent = messagingAgent({ id: AGENT, workspaceId: WORKSPACE, name: "Webhook agent" });
    await runTurn(ctx, agent, { message: "Hello from the API" }, { channel: "api" });
    const widget = await runTurn(ctx, agent, { message: "Hello from the widget", visitor: { name: "Ada" } }, { channel: "widget" });
    await worker().drain();

    const payloads = hooks.requests.map((request) => verify(secret, request) as { type: string; data: Record<string, unknown> });
    expect(payloads.map((payload) => payload.type).sort()).toEqual(["conversation.created", "conversation.message"]);
    for (const payload of payloads) {
      expect((payload.data.conversation as { id: string }).id).toBe(widget.conversationId);
    }
  });
});
