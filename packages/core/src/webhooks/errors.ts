// The errors webhooks/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";
import { WEBHOOK_ENDPOINTS_MAX } from "../platform/limits.ts";

export const WEBHOOKS_ERRORS = defineErrors({
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    status: 404,
    message: "Webhook endpoint not found",
    trpc: "NOT_FOUND",
    meaning: "The webhook endpoint is not one of your workspace's, or was deleted.",
    action: "Reload the list of endpoints and pick one that exists.",
  },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    status: 404,
    message: "Webhook delivery not found",
    trpc: "NOT_FOUND",
    meaning: "The delivery is not one of your workspace's endpoints' deliveries.",
    action: "Reload the endpoint's deliveries and pick one that exists.",
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    message:
      "Webhook URLs must use https://, without a user name or password, and must not point to a private, loopback or link-local address",
    trpc: "BAD_REQUEST",
    meaning:
      "The endpoint's URL is not `https://`, carries a user name or password, or points to a private, loopback or link-local address; `details` says which.",
    action: "Give a public `https://` URL without credentials.",
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    status: 409,
    message: "Enable the endpoint first",
    trpc: "CONFLICT",
    meaning: "A test event or a redelivery for a disabled endpoint.",
    action: "Enable the endpoint in the control panel, then try again.",
  },
  WEBHOOK_ENDPOINTS_LIMIT: {
    status: 409,
    message: "This workspace has the most webhook endpoints allowed",
    trpc: "CONFLICT",
    meaning: `The workspace already has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`,
    action: "Delete an endpoint you no longer use; one endpoint can receive every event type.",
  },
});
