// The limits of webhooks: endpoints, secrets, delivery attempts and retries, the delivery log.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** Webhooks: description length (endpoints per workspace and URL length: platform/limits.ts). */
export const WEBHOOK_DESCRIPTION_MAX_CHARS = 200;
/** Webhooks: random bytes of a signing secret ("whsec_" + their base64). */
export const WEBHOOK_SECRET_BYTES = 32;
/** Webhooks: how long the secret before a roll keeps signing too, in hours. */
export const WEBHOOK_SECRET_ROLL_HOURS = 24;
/** Webhooks: one attempt's timeout (connection, request and response), in milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Webhooks: the waits before each retry, in milliseconds (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery has failed). */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
/** Webhooks: each wait is randomised by up to this fraction either way (jitter). */
export const WEBHOOK_RETRY_JITTER = 0.1;
/** Webhooks: the longest Retry-After honoured, in milliseconds. */
export const WEBHOOK_RETRY_AFTER_MAX_MS = 24 * 3_600_000;
/** Webhooks: an endpoint failing for this long (no success in between) is disabled and flagged, in milliseconds. */
export const WEBHOOK_FAILING_DISABLE_MS = 3 * 24 * 3_600_000;
/** Webhooks: events (and their delivery log) are kept this many days. */
export const WEBHOOK_RETENTION_DAYS = 30;
/** Webhooks: characters of a response body kept in the delivery log. */
export const WEBHOOK_RESPONSE_EXCERPT_CHARS = 500;
/** Webhooks: delivery log lines per page in the panel. */
export const WEBHOOK_DELIVERIES_PER_PAGE = 50;
