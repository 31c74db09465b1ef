// webhooks.* procedures through createCaller on a real database: endpoints (create with the
// secret shown once, edit, enable/disable, roll, delete), the SSRF guard on saved URLs, the
// delivery log with "send test event" and "retry now" against a local receiver, events of panel
// actions, and workspace isolation.

import { WebhookWorker, webhookTestPayloadSchema } from "@parley/core/webhooks";
import type { TestContext } from "@parley/testing/context";
import { startReceiver } from "@parley/testing/webhook-receiver";
import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

afterEach(async () => {
  ctx.webhooks = undefined;
  await ctx.db.prisma.webhookEvent.deleteMany({});
  await ctx.db.prisma.webhookEndpoint.deleteMany({});
});

const publicResolver = async () => ["93.184.216.34"];
const ALL_TYPES = [
  "conversation.created",
  "conversation.message",
  "conversation.escalated",
  "conversation.status_changed",
  "help.article.published",
  "help.article.unpublished",
] as const;

async function trpcError(promise: Promise<unknown>): Promise<TRPCError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }
  throw new Error("expected the call to fail");
}

function newEndpoint(url = "https://hooks.example.com/parley") {
  return { url, eventTypes: [...ALL_TYPES] };
}

function drainWorker() {
  return new WebhookWorker({ db: ctx.db, allowLocal: true, now: () => NOW, retryDelaysMs: [60_000, 60_000], jitter: 0 }).drain();
}

describe("endpoints", () => {
  it("creates an endpoint and shows its secret once; reads never include it", async () => {
    ctx.webhooks = { allowLocal: false, resolve: publicResolver };
    const admin = callerFor(ctx, a.scope);
    const created = await admin.webhooks.create({
      ...newEndpoint(),
      description: "CRM sync",
      eventTypes: ["conversation.message", "conversation.created"],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({
      url: "https://hooks.example.com/parley",
      description: "CRM sync",
      allAgents: true,
      agentIds: [],
      // Stored in the documented order, whatever the order sent.
      eventTypes: ["conversation.created", "conversation.message"],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretValidUntil: null,
    });
    const listed = await admin.webhooks.list();
    expect(listed.map((endpoint) => endpoint.id)).toEqual([created.endpoint.id]);
    const fetched = await admin.webhooks.get({ id: created.endpoint.id });
    for (const read of [listed[0], fetched]) {
      expect(JSON.stringify(read)).not.toContain(created.secret);
      expect(Object.keys(read ?? {})).not.toContain("secret");
    }
  });

  it("validates event types, agents and URLs; refuses local addresses unless allowed", async () => {
    ctx.webhooks = { allowLocal: false, resolve: async (host) => (host === "internal.example" ? ["10.0.0.5"] : ["93.184.216.34"]) };
    const admin = callerFor(ctx, a.scope);
    expect((await trpcError(admin.webhooks.create({ ...newEndpoint(), eventTypes: [] }))).code).toBe("BAD_REQUEST");
    expect((await trpcError(admin.webhooks.create({ ...newEndpoint(), eventTypes: ["conversation.deleted" as never] }))).code).toBe(
      "BAD_REQUEST",
    );
    expect((await trpcError(admin.webhooks.create({ ...newEndpoint(), allAgents: false, agentIds: [] }))).code).toBe("BAD_REQUEST");
    expect((await trpcError(admin.webhooks.create({ ...newEndpoint(), allAgents: false, agentIds: [b.agentId] }))).code).toBe("NOT_FOUND");
    expect((await trpcError(admin.webhooks.create(newEndpoint("not a url")))).code).toBe("BAD_REQUEST");
    for (const url of [
      "http://hooks.example.com/parley",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://169.254.169.254/latest",
      "https://internal.example/hook",
    ]) {
      const error = await trpcError(admin.webhooks.create(newEndpoint(url)));
      expect(error.code, url).toBe("BAD_REQUEST");
      expect(error.message).toMatch(/must use https:\/\/.*private, loopback or link-local/);
    }
    expect(await ctx.db.prisma.webhookEndpoint.count()).toBe(0);

    ctx.webhooks = { allowLocal: true };
    const local = await admin.webhooks.create(newEndpoint("http://127.0.0.1:4000/hook"));
    expect(local.endpoint.url).toBe("http://127.0.0.1:4000/hook");
    const some = await admin.webhooks.create({ ...newEndpoint(), allAgents: false, agentIds: [a.agentId, a.agentId] });
    expect(some.endpoint).toMatchObject({ allAgents: false, agentIds: [a.agentId] });
  });

  it("edits, disables and enables (clearing the automatic flags), rolls the secret and deletes", async () => {
    ctx.webhooks = { allowLocal: false, resolve: publicResolver };
    const admin = callerFor(ctx, a.scope);
    const { endpoint, secret } = await admin.webhooks.create(newEndpoint());

    const edited = await admin.webhooks.update({
      id: endpoint.id,
      url: "https://other.example.com/in",
      allAgents: false,
      agentIds: [a.agentId],
      eventTypes: ["help.article.published"],
    });
    expect(edited).toMatchObject({
      url: "https://other.example.com/in",
      allAgents: false,
      agentIds: [a.agentId],
      eventTypes: ["help.article.published"],
    });
    expect((await trpcError(admin.webhooks.update({ id: endpoint.id, url: "https://127.0.0.1/x" }))).code).toBe("BAD_REQUEST");
    expect((await admin.webhooks.update({ id: endpoint.id, allAgents: true })).agentIds).toEqual([]);

    const disabled = await admin.webhooks.setEnabled({ id: endpoint.id, enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: null });
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledReason: "failing", failingSince: NOW } });
    const enabled = await admin.webhooks.setEnabled({ id: endpoint.id, enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });

    const rolled = await admin.webhooks.rollSecret({ id: endpoint.id });
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(secret);
    expect(rolled.endpoint.previousSecretValidUntil).toEqual(new Date(NOW.getTime() + 24 * 3_600_000));
    const row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ secret: rolled.secret, previousSecret: secret });

    expect(await admin.webhooks.delete({ id: endpoint.id })).toEqual({ id: endpoint.id });
    expect(await admin.webhooks.list()).toEqual([]);
    expect((await trpcError(admin.webhooks.get({ id: endpoint.id }))).code).toBe("NOT_FOUND");
  });

  it("keeps workspaces apart and needs a same-origin session", async () => {
    ctx.webhooks = { allowLocal: false, resolve: publicResolver };
    const { endpoint } = await callerFor(ctx, a.scope).webhooks.create(newEndpoint());
    const other = callerFor(ctx, b.scope);
    expect(await other.webhooks.list()).toEqual([]);
    // One call at a time: each starts only when the previous one has been checked.
    for (const call of [
      () => other.webhooks.get({ id: endpoint.id }),
      () => other.webhooks.update({ id: endpoint.id, description: "mine" }),
      () => other.webhooks.setEnabled({ id: endpoint.id, enabled: false }),
      () => other.webhooks.rollSecret({ id: endpoint.id }),
      () => other.webhooks.sendTest({ id: endpoint.id }),
      () => other.webhooks.deliveries({ endpointId: endpoint.id }),
      () => other.webhooks.delete({ id: endpoint.id }),
    ]) {
      expect((await trpcError(call())).code).toBe("NOT_FOUND");
    }
    expect((await trpcError(callerFor(ctx, null).webhooks.list())).code).toBe("UNAUTHORIZED");
    expect((await trpcError(callerFor(ctx, a.scope, { sameOrigin: false }).webhooks.create(newEndpoint()))).code).toBe("FORBIDDEN");
    expect(await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: true,
      description: "",
    });
  });
});

describe("delivery log", () => {
  it("sends a test event, logs its attempts, retries now, and refuses both while disabled", async () => {
    const receiver = await startReceiver((request) => ({ status: request.index === 0 ? 500 : 200, body: "thanks" }));
    try {
      ctx.webhooks = { allowLocal: true };
      const admin = callerFor(ctx, a.scope);
      // Only conversation.created: the test event goes out all the same.
      const { endpoint } = await admin.webhooks.create({ url: receiver.url, eventTypes: ["conversation.created"] });
      const test = await admin.webhooks.sendTest({ id: endpoint.id });
      expect(test).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
      expect(webhookTestPayloadSchema.parse(JSON.parse(test.payload))).toMatchObject({
        type: "webhook.test",
        data: { endpointId: endpoint.id },
      });

      await drainWorker();
      let log = await admin.webhooks.deliveries({ endpointId: endpoint.id });
      expect(log.items).toHaveLength(1);
      expect(log.items[0]).toMatchObject({
        id: test.id,
        eventType: "webhook.test",
        status: "pending",
        attempts: 1,
        lastStatus: 500,
        inProgress: false,
      });
      expect(log.items[0]?.nextAttemptAt).toEqual(new Date(NOW.getTime() + 60_000));
      expect(log.items[0]?.lastLatencyMs).toBeGreaterThanOrEqual(0);

      const retried = await admin.webhooks.retryDelivery({ id: test.id });
      expect(retried.nextAttemptAt).toEqual(NOW);
      await drainWorker();
      const detail = await admin.webhooks.delivery({ id: test.id });
      expect(detail).toMatchObject({ status: "succeeded", attempts: 2, lastStatus: 200, nextAttemptAt: null });
      expect(detail.attemptLog.map((attempt) => [attempt.number, attempt.status, attempt.responseBody])).toEqual([
        [1, 500, "thanks"],
        [2, 200, "thanks"],
      ]);
      expect(receiver.requests.map((request) => request.id)).toEqual([test.eventId, test.eventId]);
      log = await admin.webhooks.deliveries({ endpointId: endpoint.id, status: "failed" });
      expect(log.items).toEqual([]);

      await admin.webhooks.setEnabled({ id: endpoint.id, enabled: false });
      expect((await trpcError(admin.webhooks.sendTest({ id: endpoint.id }))).code).toBe("CONFLICT");
      expect((await trpcError(admin.webhooks.retryDelivery({ id: test.id }))).code).toBe("CONFLICT");
      expect((await trpcError(callerFor(ctx, b.scope).webhooks.delivery({ id: test.id }))).code).toBe("NOT_FOUND");
    } finally {
      await receiver.close();
    }
  });

  it("pages the log, newest first", async () => {
    ctx.webhooks = { allowLocal: false, resolve: publicResolver };
    const admin = callerFor(ctx, a.scope);
    const { endpoint } = await admin.webhooks.create(newEndpoint());
    const sent = [];
    for (let index = 0; index < 5; index += 1) sent.push((await admin.webhooks.sendTest({ id: endpoint.id })).id);
    const first = await admin.webhooks.deliveries({ endpointId: endpoint.id, limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await admin.webhooks.deliveries({ endpointId: endpoint.id, limit: 3, cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((item) => item.id).sort()).toEqual(sent.sort());
  });
});

describe("panel actions emit events", () => {
  it("an admin's status change and reply queue deliveries; publishing an article too", async () => {
    ctx.webhooks = { allowLocal: false, resolve: publicResolver };
    const admin = callerFor(ctx, a.scope);
    const { endpoint } = await admin.webhooks.create(newEndpoint());
    const conversation = await ctx.db.prisma.conversation.create({ data: { agentId: a.agentId, channel: "api" } });
    await admin.conversations.takeOver({ id: conversation.id });
    await admin.conversations.reply({ id: conversation.id, text: "A person here." });
    await admin.articles.setPublished({ id: a.articleId, published: false });
    // Beta's actions are not alpha's endpoint's business.
    await callerFor(ctx, b.scope).articles.setPublished({ id: b.articleId, published: false });

    const log = await admin.webhooks.deliveries({ endpointId: endpoint.id });
    expect(log.items.map((item) => item.eventType).sort()).toEqual(
      ["conversation.message", "conversation.status_changed", "help.article.unpublished"].sort(),
    );
  });
});
