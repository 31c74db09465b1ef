// Webhooks: events recorded with their change (outbox), delivered by an in-process worker, signed
// per Standard Webhooks. docs/integrators/webhooks.md has the contract.

export {
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
export * from "./events.ts";
export * from "./schemas.ts";
export * from "./signing.ts";
export { WEBHOOK_DELIVERIES_TASK, webhookDeliveryTask } from "./task.ts";
export * from "./types.ts";
export { webhookOperations } from "./webhook-operations.ts";
export { WebhookWorker, type WebhookWorkerOptions } from "./worker.ts";
