// Webhooks: events recorded with their change (outbox), delivered by an in-process worker, signed
// per Standard Webhooks. See the README's "Webhooks" section for the contract.
export * from "./events.ts";
export * from "./schemas.ts";
export * from "./signing.ts";
export { WEBHOOK_DELIVERIES_TASK, webhookDeliveryTask } from "./task.ts";
export * from "./types.ts";
export * from "./url-guard.ts";
export { WebhookWorker, type WebhookWorkerOptions } from "./worker.ts";
