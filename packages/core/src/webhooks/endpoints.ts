// Webhook endpoints of a workspace (the panel's Webhooks screens): create, edit, delete, enable,
// roll the signing secret, the delivery log, "send test event" and "retry now". The secret is
// returned only by create and rollSecret (shown once); every other read leaves it out.
import type { Database, Prisma } from "@parley/db";
import { z } from "zod";
import { type AuditEntry, recordAudit } from "../people/audit.ts";
import { type AdminScope, assertAgentsInWorkspace, rowId } from "../people/scope.ts";
import type { PlatformContext } from "../platform/context.ts";
import { AppError } from "../platform/errors.ts";
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_URL_MAX_CHARS } from "../platform/limits.ts";
import { BlockedUrlError, checkWebhookUrl, systemResolver, type UrlPolicy } from "../platform/url-guard.ts";
import { WEBHOOKS_ERRORS } from "./errors.ts";
import { eventBody, newDeliveryId, newEventId } from "./events.ts";
import { WEBHOOK_DELIVERIES_PER_PAGE, WEBHOOK_DESCRIPTION_MAX_CHARS, WEBHOOK_SECRET_ROLL_HOURS } from "./limits.ts";
import { generateWebhookSecret } from "./signing.ts";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from "./types.ts";

/** The URL policy of the panel: the context's (the guard is on unless it says otherwise). */
export function webhookUrlPolicy(ctx: Pick<PlatformContext, "webhooks">): UrlPolicy {
  return {
    allowLocal: ctx.webhooks?.allowLocal ?? false,
    resolve: ctx.webhooks?.resolve ?? systemResolver,
  };
}

const urlInput = z
  .string()
  .trim()
  .min(1, "Enter the endpoint's URL")
  .max(WEBHOOK_URL_MAX_CHARS)
  .refine((value) => URL.canParse(value), "Enter a full URL, such as https://example.com/webhooks");
const eventTypesInput = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, "Choose at least one event type")
  .transform((types) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type)));
const agentIdsInput = z.array(rowId).max(500);

const endpointFields = {
  url: urlInput,
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX_CHARS).default(""),
  /** True: every agent of the workspace, now and later. False: only `agentIds`. */
  allAgents: z.boolean().default(true),
  agentIds: agentIdsInput.default([]),
  eventTypes: eventTypesInput,
  enabled: z.boolean().default(true),
};

export const createEndpointInput = z.object(endpointFields).refine((input) => input.allAgents || input.agentIds.length > 0, {
  message: "Choose at least one agent",
  path: ["agentIds"],
});
export const updateEndpointInput = z
  .object({
    id: rowId,
    url: urlInput.optional(),
    description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX_CHARS).optional(),
    allAgents: z.boolean().optional(),
    agentIds: agentIdsInput.optional(),
    eventTypes: eventTypesInput.optional(),
  })
  .refine((input) => input.allAgents !== false || (input.agentIds?.length ?? 0) > 0, {
    message: "Choose at least one agent",
    path: ["agentIds"],
  });
export const endpointIdInput = z.object({ id: rowId });
export const setEndpointEnabledInput = z.object({ id: rowId, enabled: z.boolean() });
export const listDeliveriesInput = z.object({
  endpointId: rowId,
  status: z.enum(["pending", "succeeded", "failed"]).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: rowId.nullish(),
  limit: z.number().int().min(1).max(100).default(WEBHOOK_DELIVERIES_PER_PAGE),
});
export const deliveryIdInput = z.object({ id: rowId });

const endpointSelect = {
  id: true,
  url: true,
  description: true,
  allAgents: true,
  agentIds: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  previousSecretExpiresAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.WebhookEndpointSelect;

type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointSelect }>;

function toEndpoint(row: EndpointRow, now: Date) {
  const { previousSecretExpiresAt, disabledReason, ...endpoint } = row;
  return {
    ...endpoint,
    disabledReason: disabledReason as "gone" | "failing" | null,
    /** While a roll is in progress: when the previous secret stops signing. */
    previousSecretValidUntil: previousSecretExpiresAt && previousSecretExpiresAt > now ? previousSecretExpiresAt : null,
  };
}

export type WebhookEndpointView = ReturnType<typeof toEndpoint>;

async function urlOrThrow(url: string, policy: UrlPolicy): Promise<string> {
  try {
    return await checkWebhookUrl(url, policy);
  } catch (error) {
    if (error instanceof BlockedUrlError) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_URL_NOT_ALLOWED, { details: error.message });
    throw error;
  }
}

async function findEndpoint(db: Database, workspaceId: string, id: string): Promise<EndpointRow> {
  const row = await db.prisma.webhookEndpoint.findFirst({ where: { id, workspaceId }, select: endpointSelect });
  if (!row) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
  return row;
}

export async function listEndpoints(db: Database, workspaceId: string, now: Date) {
  const rows = await db.prisma.webhookEndpoint.findMany({
    where: { workspaceId },
    select: endpointSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => toEndpoint(row, now));
}

export async function getEndpoint(db: Database, workspaceId: string, id: string, now: Date) {
  return toEndpoint(await findEndpoint(db, workspaceId, id), now);
}

/** Creates an endpoint; the only time (with rollSecret) its secret is returned. */
export async function createEndpoint(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof createEndpointInput>,
  options: { policy: UrlPolicy; now: Date },
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const { workspaceId } = scope;
  const url = await urlOrThrow(input.url, options.policy);
  const agentIds = input.allAgents ? [] : [...new Set(input.agentIds)];
  await assertAgentsInWorkspace(db, workspaceId, agentIds);
  const count = await db.prisma.webhookEndpoint.count({ where: { workspaceId } });
  if (count >= WEBHOOK_ENDPOINTS_MAX) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINTS_LIMIT);
  const secret = generateWebhookSecret();
  const row = await db.prisma.$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: {
        workspaceId,
        url,
        description: input.description,
        allAgents: input.allAgents,
        agentIds,
        eventTypes: input.eventTypes,
        enabled: input.enabled,
        disabledAt: input.enabled ? null : options.now,
        secret,
      },
      select: endpointSelect,
    });
    await recordEndpointAudit(tx, scope, created, { action: "webhook.created", detail: { eventTypes: input.eventTypes } });
    return created;
  });
  return { endpoint: toEndpoint(row, options.now), secret };
}

export async function updateEndpoint(
  db: Database,
  scope: AdminScope,
  input: z.infer<typeof updateEndpointInput>,
  options: { policy: UrlPolicy; now: Date },
) {
  const { workspaceId } = scope;
  const current = await findEndpoint(db, workspaceId, input.id);
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {};
  if (input.url !== undefined && input.url !== current.url) data.url = await urlOrThrow(input.url, options.policy);
  if (input.description !== undefined) data.description = input.description;
  if (input.eventTypes !== undefined) data.eventTypes = input.eventTypes;
  const allAgents = input.allAgents ?? current.allAgents;
  if (input.allAgents !== undefined) data.allAgents = input.allAgents;
  if (allAgents) {
    if (input.allAgents === true) data.agentIds = [];
  } else if (input.agentIds !== undefined) {
    const agentIds = [...new Set(input.agentIds)];
    await assertAgentsInWorkspace(db, workspaceId, agentIds);
    data.agentIds = agentIds;
  } else if (current.agentIds.length === 0) {
    throw new AppError("INVALID_REQUEST", { details: "agentIds: Choose at least one agent" });
  }
  await db.prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id: input.id, workspaceId }, data });
    if (count === 0) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
    const updated = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: input.id }, select: labelSelect });
    await recordEndpointAudit(tx, scope, updated, { action: "webhook.updated", detail: { fields: Object.keys(data).sort() } });
  });
  return getEndpoint(db, workspaceId, input.id, options.now);
}

/** Deletes the endpoint and its delivery log. */
export async function deleteEndpoint(db: Database, scope: AdminScope, id: string): Promise<{ id: string }> {
  await db.prisma.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id, workspaceId: scope.workspaceId }, select: labelSelect });
    if (!endpoint) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id, workspaceId: scope.workspaceId } });
    if (count === 0) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
    await recordEndpointAudit(tx, scope, endpoint, { action: "webhook.deleted" });
  });
  return { id };
}

/**
 * Enabling clears the automatic flags (gone, failing); pending deliveries then resume. Disabling
 * pauses the endpoint: no new event is queued for it and nothing is sent until it is enabled.
 */
export async function setEndpointEnabled(db: Database, scope: AdminScope, input: z.infer<typeof setEndpointEnabledInput>, now: Date) {
  const { workspaceId } = scope;
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = input.enabled
    ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
    : { enabled: false, disabledReason: null, disabledAt: now };
  const where: Prisma.WebhookEndpointWhereInput = { id: input.id, workspaceId };
  // Enabling an enabled endpoint changes nothing (its failing flag stays).
  const count = await db.prisma.$transaction(async (tx) => {
    const changed = await tx.webhookEndpoint.updateMany({ where: { ...where, enabled: !input.enabled }, data });
    if (changed.count === 0) return 0;
    const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: input.id }, select: labelSelect });
    await recordEndpointAudit(tx, scope, endpoint, { action: input.enabled ? "webhook.enabled" : "webhook.disabled" });
    return changed.count;
  });
  if (count === 0) await findEndpoint(db, workspaceId, input.id);
  return getEndpoint(db, workspaceId, input.id, now);
}

/**
 * A new signing secret, returned once. The current one becomes the previous secret and keeps
 * signing too (a second signature) for 24 hours, so receivers can switch without losing events.
 */
export async function rollEndpointSecret(
  db: Database,
  scope: AdminScope,
  id: string,
  now: Date,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const { workspaceId } = scope;
  const secret = generateWebhookSecret();
  const expires = new Date(now.getTime() + WEBHOOK_SECRET_ROLL_HOURS * 3_600_000);
  const updated = await db.prisma.$transaction(async (tx) => {
    const current = await tx.webhookEndpoint.findFirst({ where: { id, workspaceId }, select: { secret: true, ...labelSelect } });
    if (!current) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id, workspaceId, secret: current.secret },
      data: { secret, previousSecret: current.secret, previousSecretExpiresAt: expires },
    });
    if (count > 0) await recordEndpointAudit(tx, scope, current, { action: "webhook.secret.rolled" });
    return count;
  });
  // A concurrent roll won: its secret is the current one and ours was never stored.
  if (updated === 0) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND);
  return { endpoint: await getEndpoint(db, workspaceId, id, now), secret };
}

/** What the audit log names an endpoint by: its description, else its host (a URL's path or query may hold a token). */
const labelSelect = { id: true, url: true, description: true } as const;

function endpointLabel(endpoint: { url: string; description: string | null }): string {
  if (endpoint.description) return endpoint.description;
  try {
    return new URL(endpoint.url).host;
  } catch {
    return "endpoint";
  }
}

async function recordEndpointAudit(
  tx: Prisma.TransactionClient,
  scope: AdminScope,
  endpoint: { id: string; url: string; description: string | null },
  entry: Pick<AuditEntry, "action" | "detail">,
): Promise<void> {
  await recordAudit(tx, scope, { ...entry, targetType: "webhook", targetId: endpoint.id, targetLabel: endpointLabel(endpoint) });
}

const deliverySelect = {
  id: true,
  eventId: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lockedUntil: true,
  lastAttemptAt: true,
  lastStatus: true,
  lastError: true,
  lastLatencyMs: true,
  deliveredAt: true,
  createdAt: true,
  event: { select: { type: true } },
} satisfies Prisma.WebhookDeliverySelect;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliverySelect }>;

function toDelivery({ event, lockedUntil, ...row }: DeliveryRow, now: Date) {
  return { ...row, eventType: event.type, inProgress: row.status === "pending" && lockedUntil !== null && lockedUntil > now };
}

/** The endpoint's delivery log, newest first. */
export async function listDeliveries(db: Database, workspaceId: string, input: z.infer<typeof listDeliveriesInput>, now: Date) {
  await findEndpoint(db, workspaceId, input.endpointId);
  const where: Prisma.WebhookDeliveryWhereInput = { endpointId: input.endpointId };
  if (input.status) where.status = input.status;
  const rows = await db.prisma.webhookDelivery.findMany({
    where,
    select: deliverySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((row) => toDelivery(row, now)),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

async function findDelivery(db: Database, workspaceId: string, id: string) {
  const row = await db.prisma.webhookDelivery.findFirst({
    where: { id, endpoint: { workspaceId } },
    select: {
      ...deliverySelect,
      endpointId: true,
      endpoint: { select: { enabled: true } },
      event: { select: { type: true, payload: true } },
    },
  });
  if (!row) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_DELIVERY_NOT_FOUND);
  return row;
}

/** One delivery with its payload and every attempt. */
export async function getDelivery(db: Database, workspaceId: string, id: string, now: Date) {
  const { endpoint: _endpoint, endpointId, event, ...row } = await findDelivery(db, workspaceId, id);
  const attempts = await db.prisma.webhookAttempt.findMany({
    where: { deliveryId: id },
    orderBy: { number: "asc" },
    select: { number: true, startedAt: true, status: true, error: true, latencyMs: true, responseBody: true },
  });
  return { ...toDelivery({ ...row, event }, now), endpointId, payload: event.payload, attemptLog: attempts };
}

/** "Retry now": a pending or failed delivery is due at once (the same webhook-id, one more attempt). */
export async function retryDelivery(db: Database, workspaceId: string, id: string, now: Date) {
  const delivery = await findDelivery(db, workspaceId, id);
  if (!delivery.endpoint.enabled) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_DISABLED);
  await db.prisma.webhookDelivery.updateMany({
    where: { id, status: { in: ["pending", "failed"] } },
    data: { status: "pending", nextAttemptAt: now },
  });
  return getDelivery(db, workspaceId, id, now);
}

/**
 * "Send test event": a `webhook.test` event to this endpoint only, whatever its event types,
 * delivered (signed, retried) like any other.
 */
export async function sendTestEvent(db: Database, workspaceId: string, id: string, now: Date) {
  const endpoint = await findEndpoint(db, workspaceId, id);
  if (!endpoint.enabled) throw new AppError(WEBHOOKS_ERRORS.WEBHOOK_ENDPOINT_DISABLED);
  const eventId = newEventId(now);
  const delivery = await db.prisma.$transaction(async (tx) => {
    await tx.webhookEvent.create({
      data: {
        id: eventId,
        workspaceId,
        type: WEBHOOK_TEST_EVENT_TYPE,
        payload: eventBody(WEBHOOK_TEST_EVENT_TYPE, now, {
          endpointId: endpoint.id,
          message: "A test event sent from the Parley control panel.",
        }),
        createdAt: now,
      },
    });
    return tx.webhookDelivery.create({
      data: { id: newDeliveryId(), eventId, endpointId: endpoint.id, nextAttemptAt: now, createdAt: now },
      select: { id: true },
    });
  });
  return getDelivery(db, workspaceId, delivery.id, now);
}
