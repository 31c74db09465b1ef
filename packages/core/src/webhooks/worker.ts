// The webhook delivery worker. Every app instance runs one (in process) as a task of its
// scheduler (task.ts: each run is one tick); they share the work through the database: a worker
// claims due deliveries with `FOR UPDATE SKIP LOCKED` and stamps them with its claim token and a
// lease, so no two workers hold one delivery at the same time. A worker that dies mid-delivery
// leaves its lease behind; once it expires the delivery is claimed again and sent with the same
// webhook-id (receivers dedupe by it). Results are written only by the holder of the claim.
//
// Each attempt POSTs the event's JSON with fresh Standard Webhooks headers. 2xx: delivered. 410:
// the endpoint is disabled. Anything else (or a timeout, a network error, a blocked address) is
// retried after the next wait of the schedule, with jitter, or later if Retry-After asks; after
// the last one the delivery has failed. An endpoint with no success for 3 days while failing is
// disabled and flagged.
import { randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { pruneIdempotencyRecords } from "../platform/idempotency-records.ts";
import { describeError, logger } from "../platform/logger.ts";
import { BlockedUrlError, parseWebhookUrl, type Resolver, resolveWebhookTarget, systemResolver } from "../platform/url-guard.ts";
import { AttemptError, type PostResult, postWebhook } from "./http.ts";
import {
  WEBHOOK_FAILING_DISABLE_MS,
  WEBHOOK_RETENTION_DAYS,
  WEBHOOK_RETRY_AFTER_MAX_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_TIMEOUT_MS,
} from "./limits.ts";
import { signingSecrets, webhookHeaders } from "./signing.ts";

export interface WebhookWorkerOptions {
  db: Database;
  /** Allow http:// and local addresses (WEBHOOKS_ALLOW_LOCAL). */
  allowLocal?: boolean;
  resolve?: Resolver;
  now?: () => Date;
  /** Waits before each retry, in ms; after the last one the delivery fails. */
  retryDelaysMs?: readonly number[];
  /** Fraction of random spread of each wait, either way. */
  jitter?: number;
  random?: () => number;
  timeoutMs?: number;
  /** How long a claim holds; must exceed timeoutMs. */
  leaseMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Wait between polls when there is nothing due (the interval of its scheduler task). */
  pollIntervalMs?: number;
  failingDisableMs?: number;
  /** Identifies the worker in logs. */
  name?: string;
}

interface Claimed {
  id: string;
  token: string;
  attempt: number;
}

interface Outcome {
  startedAt: Date;
  latencyMs: number;
  status: number | null;
  error: string | null;
  retryAfterMs: number | null;
  body: string | null;
}

const PRUNE_INTERVAL_MS = 3_600_000;

export class WebhookWorker {
  private readonly db: Database;
  private readonly options: Required<Omit<WebhookWorkerOptions, "db">>;
  private stopping = false;
  private killed = false;
  /** The tick in progress, which stop() waits for (its claims join the deliveries in flight). */
  private ticking: Promise<number> | null = null;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private wakeListener: (() => void) | null = null;
  private lastPrune: number | null = null;

  constructor(options: WebhookWorkerOptions) {
    this.db = options.db;
    this.options = {
      allowLocal: options.allowLocal ?? false,
      resolve: options.resolve ?? systemResolver,
      now: options.now ?? (() => new Date()),
      retryDelaysMs: options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS,
      jitter: options.jitter ?? WEBHOOK_RETRY_JITTER,
      random: options.random ?? Math.random,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      leaseMs: options.leaseMs ?? Math.max(60_000, (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) * 3),
      concurrency: options.concurrency ?? 8,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      failingDisableMs: options.failingDisableMs ?? WEBHOOK_FAILING_DISABLE_MS,
      name: options.name ?? `worker-${randomBytes(3).toString("hex")}`,
    };
    // A claim must outlive its attempt, or the worker would take its own delivery again mid-flight.
    if (this.options.leaseMs <= this.options.timeoutMs) throw new Error("WebhookWorker: leaseMs must be longer than timeoutMs");
  }

  get pollIntervalMs(): number {
    return this.options.pollIntervalMs;
  }

  /** Whether every delivery slot is taken (the next tick waits for one to free up). */
  get full(): boolean {
    return this.inFlight.size >= this.options.concurrency;
  }

  /** Called by wake() (its scheduler task connects it): a slot freed up, or deliveries are due. */
  connect(listener: () => void): void {
    this.wakeListener = listener;
  }

  /** Looks for due deliveries now instead of at the next poll. */
  wake(): void {
    this.wakeListener?.();
  }

  /**
   * Stops cleanly: no new claims; deliveries in flight get `graceMs` to finish, then are aborted
   * and their claims released (another worker retries them at once, as the same attempt).
   */
  async stop(graceMs = 3_000): Promise<void> {
    this.stopping = true;
    await this.ticking?.catch(() => undefined);
    const pending = [...this.inFlight.values()];
    if (pending.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all(pending.map((entry) => entry.done)), grace]);
      clearTimeout(timer);
      for (const entry of this.inFlight.values()) entry.controller.abort();
      await Promise.all([...this.inFlight.values()].map((entry) => entry.done));
    }
  }

  /**
   * Tests only: dies like a killed process. In-flight requests are cut off and nothing more is
   * written to the database; claims stay until their leases expire.
   */
  kill(): void {
    this.killed = true;
    for (const entry of this.inFlight.values()) entry.controller.abort();
  }

  get activeDeliveries(): number {
    return this.inFlight.size;
  }

  /**
   * One run of the scheduler task: claims as many due deliveries as there is room for and starts
   * them (they finish in the background), then prunes expired records if the hour is up. Returns
   * how many deliveries it claimed. A stopping or killed worker claims nothing.
   */
  async tick(): Promise<number> {
    if (this.stopping || this.killed) return 0;
    this.ticking = this.claimAndPrune();
    try {
      return await this.ticking;
    } finally {
      this.ticking = null;
    }
  }

  private async claimAndPrune(): Promise<number> {
    let claimed = 0;
    const room = this.options.concurrency - this.inFlight.size;
    if (room > 0) {
      const batch = await this.claim(room);
      claimed = batch.length;
      for (const item of batch) this.launch(item);
    }
    await this.pruneIfDue();
    return claimed;
  }

  private launch(item: Claimed): void {
    const controller = new AbortController();
    const done = this.process(item, controller.signal)
      .catch((error) => {
        if (!this.killed)
          logger.error("webhook delivery failed", { worker: this.options.name, deliveryId: item.id, error: describeError(error) });
      })
      .finally(() => {
        this.inFlight.delete(item.id);
        this.wake();
      });
    this.inFlight.set(item.id, { controller, done });
  }

  /** Claims up to `limit` due deliveries of enabled endpoints, oldest due first. */
  async claim(limit: number): Promise<Claimed[]> {
    const now = this.options.now();
    const token = `${this.options.name}:${randomBytes(12).toString("hex")}`;
    const at = now.toISOString();
    const until = new Date(now.getTime() + this.options.leaseMs).toISOString();
    // The due rows are locked (skipping rows another worker is claiming right now) and stamped in
    // one statement; once it commits, the lease keeps other workers away.
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string; attempts: number }>>`
      WITH "due" AS MATERIALIZED (
        SELECT c."id"
        FROM "WebhookDelivery" c
        JOIN "WebhookEndpoint" e ON e."id" = c."endpointId"
        WHERE c."status" = 'pending'
          AND c."nextAttemptAt" <= (${at}::timestamptz AT TIME ZONE 'UTC')
          AND (c."lockedUntil" IS NULL OR c."lockedUntil" <= (${at}::timestamptz AT TIME ZONE 'UTC'))
          AND e."enabled"
        ORDER BY c."nextAttemptAt", c."eventId"
        LIMIT ${limit}
        FOR UPDATE OF c SKIP LOCKED
      )
      UPDATE "WebhookDelivery" d
      SET "claimToken" = ${token},
          "lockedUntil" = (${until}::timestamptz AT TIME ZONE 'UTC'),
          "attempts" = d."attempts" + 1,
          "lastAttemptAt" = (${at}::timestamptz AT TIME ZONE 'UTC'),
          "updatedAt" = (${at}::timestamptz AT TIME ZONE 'UTC')
      FROM "due"
      WHERE d."id" = "due"."id"
      RETURNING d."id", d."attempts"`;
    return rows.map((row) => ({ id: row.id, token, attempt: Number(row.attempts) }));
  }

  /** Claims and processes due deliveries until none is left (tests drive the worker with this). */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.claim(this.options.concurrency);
      if (batch.length === 0) return total;
      total += batch.length;
      await Promise.all(batch.map((item) => this.process(item, new AbortController().signal)));
    }
  }

  private async process(item: Claimed, signal: AbortSignal): Promise<void> {
    const delivery = await this.db.prisma.webhookDelivery.findFirst({
      where: { id: item.id, claimToken: item.token },
      select: {
        eventId: true,
        event: { select: { payload: true } },
        endpoint: { select: { id: true, url: true, secret: true, previousSecret: true, previousSecretExpiresAt: true } },
      },
    });
    if (!delivery || this.killed) return;
    const outcome = await this.attempt(delivery.endpoint, delivery.eventId, delivery.event.payload, signal);
    if (this.killed) return;
    if (signal.aborted) {
      await this.release(item);
      return;
    }
    await this.record(item, delivery.endpoint.id, outcome);
  }

  private async attempt(
    endpoint: { url: string; secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
    eventId: string,
    body: string,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const startedAt = this.options.now();
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const policy = { allowLocal: this.options.allowLocal, resolve: this.options.resolve };
    let result: PostResult;
    try {
      const url = parseWebhookUrl(endpoint.url, policy);
      // The timeout covers the whole attempt, the DNS lookup included.
      const addresses = await withTimeout(resolveWebhookTarget(url, policy), this.options.timeoutMs);
      const headers = {
        "content-type": "application/json",
        "user-agent": "Parley-Webhooks/1.0",
        ...webhookHeaders(signingSecrets(endpoint, startedAt), eventId, this.options.now(), body),
      };
      const timeoutMs = Math.max(1, this.options.timeoutMs - latency());
      result = await postWebhook({ url, addresses, headers, body, timeoutMs, signal, now: this.options.now });
    } catch (error) {
      const message = error instanceof BlockedUrlError || error instanceof AttemptError ? error.message : describeError(error);
      return { startedAt, latencyMs: latency(), status: null, error: message, retryAfterMs: null, body: null };
    }
    return { startedAt, latencyMs: latency(), status: result.status, error: null, retryAfterMs: result.retryAfterMs, body: result.body };
  }

  /** Gives a claim back untouched (the attempt did not happen as far as we know). */
  private async release(item: Claimed): Promise<void> {
    await this.db.prisma.webhookDelivery.updateMany({
      where: { id: item.id, claimToken: item.token },
      data: { claimToken: null, lockedUntil: null, attempts: { decrement: 1 } },
    });
  }

  /** The attempt's result, written only while this worker still holds the claim. */
  private async record(item: Claimed, endpointId: string, outcome: Outcome): Promise<void> {
    const now = this.options.now();
    const success = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
    const exhausted = item.attempt > this.options.retryDelaysMs.length;
    const nextAttemptAt =
      success || gone || exhausted ? null : new Date(now.getTime() + this.retryDelay(item.attempt, outcome.retryAfterMs));
    const status = success ? "succeeded" : nextAttemptAt ? "pending" : "failed";

    await this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: item.id, claimToken: item.token },
        data: {
          status,
          claimToken: null,
          lockedUntil: null,
          nextAttemptAt,
          lastStatus: outcome.status,
          lastError: outcome.error,
          lastLatencyMs: outcome.latencyMs,
          deliveredAt: success ? now : undefined,
        },
      });
      if (count === 0) return; // The claim expired and another worker took over.
      await tx.webhookAttempt.create({
        data: {
          deliveryId: item.id,
          number: item.attempt,
          startedAt: outcome.startedAt,
          status: outcome.status,
          error: outcome.error,
          latencyMs: outcome.latencyMs,
          responseBody: outcome.body,
        },
      });
      if (success) {
        await tx.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: { not: null } }, data: { failingSince: null } });
        return;
      }
      if (gone) {
        await tx.webhookEndpoint.updateMany({
          where: { id: endpointId, enabled: true },
          data: { enabled: false, disabledReason: "gone", disabledAt: now },
        });
        logger.warn("webhook endpoint disabled: 410 Gone", { endpointId });
        return;
      }
      await tx.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: now } });
      const { count: disabled } = await tx.webhookEndpoint.updateMany({
        where: { id: endpointId, enabled: true, failingSince: { lte: new Date(now.getTime() - this.options.failingDisableMs) } },
        data: { enabled: false, disabledReason: "failing", disabledAt: now },
      });
      if (disabled > 0) logger.warn("webhook endpoint disabled: failing for 3 days", { endpointId });
    });
  }

  /** The wait after attempt number `attempt` failed: the schedule's, with jitter, or Retry-After's if longer. */
  retryDelay(attempt: number, retryAfterMs: number | null): number {
    const delays = this.options.retryDelaysMs;
    const base = delays[Math.min(attempt, delays.length) - 1] ?? 0;
    const spread = 1 + (this.options.random() * 2 - 1) * this.options.jitter;
    const scheduled = Math.round(base * spread);
    return retryAfterMs === null ? scheduled : Math.max(scheduled, Math.min(retryAfterMs, WEBHOOK_RETRY_AFTER_MAX_MS));
  }

  /** Prunes expired records on the first pass and then at most once an hour. */
  private async pruneIfDue(): Promise<void> {
    const now = this.options.now();
    if (this.lastPrune !== null && now.getTime() - this.lastPrune < PRUNE_INTERVAL_MS) return;
    this.lastPrune = now.getTime();
    await this.prune(now);
  }

  /**
   * Deletes webhook events (with their delivery logs) past the retention period and idempotency
   * records past their lifetime, then logs the counts. A failure is logged and waits for the next
   * run: pruning is housekeeping and must not stop deliveries. Returns the counts deleted (a
   * count is missing when its delete failed).
   */
  async prune(now: Date): Promise<{ webhookEvents?: number; idempotencyRecords?: number }> {
    const pruned: { webhookEvents?: number; idempotencyRecords?: number } = {};
    try {
      const before = new Date(now.getTime() - WEBHOOK_RETENTION_DAYS * 86_400_000);
      pruned.webhookEvents = (await this.db.prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: before } } })).count;
    } catch (error) {
      logger.error("pruning webhook events failed", { worker: this.options.name, error: describeError(error) });
    }
    try {
      pruned.idempotencyRecords = await pruneIdempotencyRecords(this.db, now);
    } catch (error) {
      logger.error("pruning idempotency records failed", { worker: this.options.name, error: describeError(error) });
    }
    logger.info("expired records pruned", { worker: this.options.name, ...pruned });
    return pruned;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AttemptError(`Timed out after ${Math.round(ms / 1000)} s (DNS lookup)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
