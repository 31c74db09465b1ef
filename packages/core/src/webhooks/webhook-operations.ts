// The control panel's operations on webhook endpoints and their deliveries (the `webhooks` router
// of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../people/panel-operation.ts";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, moment, page } from "../platform/panel-outputs.ts";
import {
  createEndpoint,
  createEndpointInput,
  deleteEndpoint,
  deliveryIdInput,
  endpointIdInput,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listDeliveriesInput,
  listEndpoints,
  retryDelivery,
  rollEndpointSecret,
  sendTestEvent,
  setEndpointEnabled,
  setEndpointEnabledInput,
  updateEndpoint,
  updateEndpointInput,
  webhookUrlPolicy,
} from "./endpoints.ts";

export const webhookEndpointOutput = z.object({
  id,
  url: z.string(),
  description: z.string(),
  allAgents: z.boolean(),
  agentIds: z.array(id),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.enum(["gone", "failing"]).nullable(),
  disabledAt: moment.nullable(),
  failingSince: moment.nullable(),
  /** While a roll is in progress: when the previous secret stops signing (a time, not the secret). */
  previousSecretValidUntil: moment.nullable(),
  createdAt: moment,
  updatedAt: moment,
});

export const webhookEndpointListOutput = z.array(webhookEndpointOutput);

/** The one time a signing secret is shown: on create and on roll. */
export const webhookEndpointWithSecretOutput = z.object({ endpoint: webhookEndpointOutput, secret: z.string() });

export const deletedWebhookEndpointOutput = z.object({ id });

export const webhookDeliveryOutput = z.object({
  id,
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: count,
  inProgress: z.boolean(),
  nextAttemptAt: moment.nullable(),
  lastAttemptAt: moment.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  deliveredAt: moment.nullable(),
  createdAt: moment,
});

export const webhookDeliveryListOutput = page(webhookDeliveryOutput);

export const webhookDeliveryDetailOutput = z.object({
  ...webhookDeliveryOutput.shape,
  endpointId: id,
  /** The event body as sent (JSON text). */
  payload: z.string(),
  attemptLog: z.array(
    z.object({
      number: count,
      startedAt: moment,
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      latencyMs: z.number().int(),
      responseBody: z.string().nullable(),
    }),
  ),
});

const panel = panelOperationsOver<PlatformContext>();

export const webhookOperations = {
  list: panel.query({
    permission: "webhooks.manage",
    output: webhookEndpointListOutput,
    run: ({ app, scope }) => listEndpoints(app.db, scope.workspaceId, app.now()),
  }),
  get: panel.query({
    permission: "webhooks.manage",
    input: endpointIdInput,
    output: webhookEndpointOutput,
    run: ({ app, scope }, input) => getEndpoint(app.db, scope.workspaceId, input.id, app.now()),
  }),
  /** Returns the signing secret: the only time it is shown (with rollSecret). */
  create: panel.mutation({
    permission: "webhooks.manage",
    input: createEndpointInput,
    output: webhookEndpointWithSecretOutput,
    run: ({ app, scope }, input) => createEndpoint(app.db, scope, input, { policy: webhookUrlPolicy(app), now: app.now() }),
  }),
  update: panel.mutation({
    permission: "webhooks.manage",
    input: updateEndpointInput,
    output: webhookEndpointOutput,
    run: ({ app, scope }, input) => updateEndpoint(app.db, scope, input, { policy: webhookUrlPolicy(app), now: app.now() }),
  }),
  delete: panel.mutation({
    permission: "webhooks.manage",
    input: endpointIdInput,
    output: deletedWebhookEndpointOutput,
    run: ({ app, scope }, input) => deleteEndpoint(app.db, scope, input.id),
  }),
  setEnabled: panel.mutation({
    permission: "webhooks.manage",
    input: setEndpointEnabledInput,
    output: webhookEndpointOutput,
    run: ({ app, scope }, input) => setEndpointEnabled(app.db, scope, input, app.now()),
  }),
  rollSecret: panel.mutation({
    permission: "webhooks.manage",
    input: endpointIdInput,
    output: webhookEndpointWithSecretOutput,
    run: ({ app, scope }, input) => rollEndpointSecret(app.db, scope, input.id, app.now()),
  }),
  deliveries: panel.query({
    permission: "webhooks.manage",
    input: listDeliveriesInput,
    output: webhookDeliveryListOutput,
    run: ({ app, scope }, input) => listDeliveries(app.db, scope.workspaceId, input, app.now()),
  }),
  delivery: panel.query({
    permission: "webhooks.manage",
    input: deliveryIdInput,
    output: webhookDeliveryDetailOutput,
    run: ({ app, scope }, input) => getDelivery(app.db, scope.workspaceId, input.id, app.now()),
  }),
  sendTest: panel.mutation({
    permission: "webhooks.manage",
    input: endpointIdInput,
    output: webhookDeliveryDetailOutput,
    run: ({ app, scope }, input) => sendTestEvent(app.db, scope.workspaceId, input.id, app.now()),
  }),
  retryDelivery: panel.mutation({
    permission: "webhooks.manage",
    input: deliveryIdInput,
    output: webhookDeliveryDetailOutput,
    run: ({ app, scope }, input) => retryDelivery(app.db, scope.workspaceId, input.id, app.now()),
  }),
};
