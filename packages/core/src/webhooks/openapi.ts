// The OpenAPI document's `webhooks` section: what Parley POSTs to an integrator's endpoint, one
// entry per event type of webhooks/types.ts, from the payload schemas of webhooks/schemas.ts.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathItemObject, ZodOpenApiSecuritySchemeObject } from "zod-openapi";
import {
  WEBHOOK_FAILING_DISABLE_MS,
  WEBHOOK_RETRY_AFTER_MAX_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_TIMEOUT_MS,
} from "./limits.ts";
import { WEBHOOK_HEADERS, WEBHOOK_PAYLOAD_SCHEMAS, webhookTestPayloadSchema } from "./schemas.ts";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from "./types.ts";

/** A duration of the retry schedule in words: 5 s, 5 min, 2 h, 3 days. */
function duration(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, " days"],
    [3_600_000, " h"],
    [60_000, " min"],
    [1_000, " s"],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit === " days" && ms === size ? " day" : unit}`;
  }
  return `${ms} ms`;
}

const webhookHeaderParams = z.object({
  "webhook-id": z
    .string()
    .regex(/^evt_[0-9a-z]+$/)
    .meta({ description: WEBHOOK_HEADERS["webhook-id"], examples: ["evt_0mi3x8k2p0001a1b2c3d4e5f6a7b8"] }),
  "webhook-timestamp": z
    .string()
    .regex(/^\d+$/)
    .meta({ description: WEBHOOK_HEADERS["webhook-timestamp"], examples: ["1763640000"] }),
  "webhook-signature": z
    .string()
    .regex(/^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$/)
    .meta({ description: WEBHOOK_HEADERS["webhook-signature"], examples: ["v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="] }),
});

const WEBHOOK_RESPONSES = {
  "2XX": {
    description: `Delivered: any 2xx status within ${duration(WEBHOOK_TIMEOUT_MS)} (connection, request and response). The body is ignored; answer quickly and do the work afterwards.`,
  },
  "410": {
    description: "Gone: the endpoint is disabled at once (no retry, no further deliveries) until it is enabled again in the control panel.",
  },
  default: {
    description: [
      `Any other status (redirects are not followed), a timeout after ${duration(WEBHOOK_TIMEOUT_MS)} or a network error: retried with the same \`webhook-id\` and fresh signatures after ${WEBHOOK_RETRY_DELAYS_MS.map(duration).join(", ")} (each wait ±${Math.round(WEBHOOK_RETRY_JITTER * 100)}%), or later when the response's \`Retry-After\` asks (honoured up to ${duration(WEBHOOK_RETRY_AFTER_MAX_MS)}); after the last retry the delivery has failed.`,
      `An endpoint failing for ${duration(WEBHOOK_FAILING_DISABLE_MS)} without a success is disabled and flagged in the control panel.`,
    ].join("\n\n"),
  },
} satisfies ZodOpenApiOperationObject["responses"];

function webhookOperation(type: string, description: string, schema: z.ZodType): ZodOpenApiPathItemObject {
  const name = type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase());
  return {
    post: {
      operationId: `${name}Webhook`,
      tags: ["Webhooks"],
      summary: type,
      description: `${description}\n\nSent as JSON (\`Content-Type: application/json\`) with the Standard Webhooks headers; verify the signature before trusting the body, and ignore fields you do not know.`,
      security: [{ webhookSignature: [] }],
      requestParams: { header: webhookHeaderParams },
      requestBody: { required: true, content: { "application/json": { schema } } },
      responses: WEBHOOK_RESPONSES,
    },
  };
}

/** The `webhooks` section: every event type of webhooks/types.ts, and the panel's test event. */
export function webhookEntries(): Record<string, ZodOpenApiPathItemObject> {
  const entries: Record<string, ZodOpenApiPathItemObject> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    entries[type] = webhookOperation(type, WEBHOOK_EVENT_DESCRIPTIONS[type], WEBHOOK_PAYLOAD_SCHEMAS[type]);
  }
  entries[WEBHOOK_TEST_EVENT_TYPE] = webhookOperation(
    WEBHOOK_TEST_EVENT_TYPE,
    'Sent only by the control panel\'s "Send test event", to one endpoint, whatever its event types.',
    webhookTestPayloadSchema,
  );
  return entries;
}

/**
 * What protects a webhook: not a credential the sender holds, but Parley's Standard Webhooks
 * signature, which the receiver checks with the endpoint's secret. OpenAPI has no scheme for a
 * signature, so it is declared as the header it travels in.
 */
export const webhookSignatureScheme: ZodOpenApiSecuritySchemeObject = {
  type: "apiKey",
  in: "header",
  name: "webhook-signature",
  description: [
    "The Standard Webhooks signature (https://www.standardwebhooks.com) on every delivery: the proof that it comes from Parley, checked by your endpoint with the endpoint's signing secret (`whsec_...`, shown in the control panel).",
    `Format: ${WEBHOOK_HEADERS["webhook-signature"]}`,
    "Verify it (any Standard Webhooks library does) and reject the delivery when no signature matches or `webhook-timestamp` is far from now.",
  ].join("\n\n"),
};
