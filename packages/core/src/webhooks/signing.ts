// Standard Webhooks signatures (https://www.standardwebhooks.com): "v1," + base64 of the
// HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the base64-decoded part
// of the secret after "whsec_". During a secret roll both secrets sign, space-separated.
import { createHmac, randomBytes } from "node:crypto";
import { WEBHOOK_SECRET_BYTES } from "./limits.ts";

export const SECRET_PREFIX = "whsec_";

/** A new signing secret: "whsec_" + base64 of random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString("base64")}`;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, "base64");
}

/** One signature, "v1,<base64>". `timestamp` is in whole seconds since the epoch. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The endpoint's secrets that sign at `now`: the current one, and the previous one during a roll. */
export function signingSecrets(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now.getTime()) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

/** The three Standard Webhooks headers of one attempt (fresh timestamp and signatures each time). */
export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function webhookHeaders(secrets: readonly string[], id: string, now: Date, body: string): WebhookHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(" "),
  };
}
