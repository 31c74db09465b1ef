// The webhook models round-trip every field through the Prisma client (as roundtrip.test.ts does for
// the others), on whichever database mode the run uses, and fill their defaults.
import { WebhookDeliveryStatus } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-wh", name: "Webhooks" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("webhook models round-trip every field", () => {
  it("WebhookEndpoint, WebhookEvent, WebhookDelivery (every status) and WebhookAttempt", async () => {
    const endpoint = {
      id: "ep-rt",
      workspaceId: "ws-wh",
      url: "https://hooks.example.com/in?token=ä%20b",
      description: "CRM «sync» 🚀",
      allAgents: false,
      agentIds: ["agent-a", "agent-b"],
      eventTypes: ["conversation.created", "help.article.published"],
      enabled: false,
      disabledReason: "failing",
      disabledAt: t("2026-11-20T12:00:00.001Z"),
      secret: `whsec_${"A".repeat(43)}=`,
      previousSecret: `whsec_${"B".repeat(43)}=`,
      previousSecretExpiresAt: t("2026-11-21T12:00:00.002Z"),
      failingSince: t("2026-11-17T12:00:00.003Z"),
      createdAt: t("2026-11-01T00:00:00.004Z"),
      updatedAt: t("2026-11-20T12:00:00.005Z"),
    };
    await db.prisma.webhookEndpoint.create({ data: endpoint });
    expectAllFields("WebhookEndpoint", endpoint, await db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));

    const event = {
      id: "evt_rt",
      workspaceId: "ws-wh",
      type: "conversation.message",
      payload: JSON.stringify({
        type: "conversation.message",
        timestamp: "2026-11-20T12:00:00.000Z",
        data: { text: 'Zoë "quoted" \\ 🚀' },
      }),
      createdAt: t("2026-11-20T12:00:00.006Z"),
    };
    await db.prisma.webhookEvent.create({ data: event });
    expectAllFields("WebhookEvent", event, await db.prisma.webhookEvent.findUniqueOrThrow({ where: { id: event.id } }));

    for (const [index, status] of Object.values(WebhookDeliveryStatus).entries()) {
      const delivery = {
        id: `whd_rt_${status}`,
        eventId: event.id,
        endpointId:
          index === 0 ? endpoint.id : (await db.prisma.webhookEndpoint.create({ data: { ...endpoint, id: `ep-rt-${status}` } })).id,
        status,
        attempts: 8,
        nextAttemptAt: status === "pending" ? t("2026-11-20T12:05:00.007Z") : null,
        claimToken: status === "pending" ? "worker-1:abc" : null,
        lockedUntil: status === "pending" ? t("2026-11-20T12:06:00.008Z") : null,
        lastAttemptAt: t("2026-11-20T12:00:01.009Z"),
        lastStatus: status === "failed" ? null : 503,
        lastError: status === "failed" ? "Timed out after 10 s" : null,
        lastLatencyMs: 10_000,
        deliveredAt: status === "succeeded" ? t("2026-11-20T12:00:02.010Z") : null,
        createdAt: t("2026-11-20T12:00:00.011Z"),
        updatedAt: t("2026-11-20T12:00:02.012Z"),
      };
      await db.prisma.webhookDelivery.create({ data: delivery });
      expectAllFields("WebhookDelivery", delivery, await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }));
    }

    const attempt = {
      id: "att-rt",
      deliveryId: "whd_rt_pending",
      number: 1,
      startedAt: t("2026-11-20T12:00:00.013Z"),
      status: 500,
      error: null,
      latencyMs: 42,
      responseBody: "Internal error: ünïcode ✓",
    };
    await db.prisma.webhookAttempt.create({ data: attempt });
    expectAllFields("WebhookAttempt", attempt, await db.prisma.webhookAttempt.findUniqueOrThrow({ where: { id: attempt.id } }));

    // Deleting the endpoint removes its deliveries and their attempts; the event stays.
    await db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
    expect(await db.prisma.webhookAttempt.count({ where: { id: attempt.id } })).toBe(0);
    expect(await db.prisma.webhookEvent.count({ where: { id: event.id } })).toBe(1);
  });

  it("fills the defaults", async () => {
    const endpoint = await db.prisma.webhookEndpoint.create({
      data: { workspaceId: "ws-wh", url: "https://x.example", secret: "whsec_x" },
    });
    expect(endpoint).toMatchObject({
      description: "",
      allAgents: true,
      agentIds: [],
      eventTypes: [],
      enabled: true,
      disabledReason: null,
      previousSecret: null,
      failingSince: null,
    });
    expect(endpoint.id).toMatch(/^c[a-z0-9]{20,}$/);
    await db.prisma.webhookEvent.create({ data: { id: "evt_defaults", workspaceId: "ws-wh", type: "webhook.test", payload: "{}" } });
    const delivery = await db.prisma.webhookDelivery.create({ data: { eventId: "evt_defaults", endpointId: endpoint.id } });
    expect(delivery).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: null, claimToken: null, lockedUntil: null });
  });
});
