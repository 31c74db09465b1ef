// Numeric limits of the spec (section 8) and of our own choosing, each stated once: here the ones
// of the platform (rate limits, idempotency, mail) and those a platform module reads as well as
// their feature (error texts, the URL guard), and the request bodies the server entry checks. Each
// module's own limits are in its limits.ts (knowledge/limits.ts, conversations/limits.ts, ...).
import { routedPath } from "./request-path.mjs";

/** Send-message requests per minute per agent. */
export const MESSAGES_PER_MINUTE = 30;
/** Help-route requests per minute per client IP and agent. */
export const HELP_REQUESTS_PER_MINUTE = 30;
/** Failed bearer-key attempts per minute per client IP (brute-force guard). */
export const FAILED_KEY_ATTEMPTS_PER_MINUTE = 10;
/** Failed panel sign-ins per 15 minutes per email and IP. */
export const FAILED_SIGN_INS_PER_WINDOW = 5;
/** Failed panel sign-ins per 15 minutes per IP, whatever the emails (a separate budget). */
export const FAILED_SIGN_INS_PER_IP_PER_WINDOW = 20;
export const IDEMPOTENCY_TTL_HOURS = 24;
/** Control panel: lengths of article titles and bodies. */
export const ARTICLE_TITLE_MAX_CHARS = 200;
export const ARTICLE_CONTENT_MAX_CHARS = 100_000;
/** Articles one source may hold (a help centre with more spreads them over several sources). */
export const ARTICLES_PER_SOURCE_MAX = 20_000;

// Request bodies, by path: the server entry counts each body's bytes before anything reads it and
// refuses a larger one with 413 (declared by Content-Length, or as a chunked body grows).
/** Sign-in and the other next-auth routes: email, a password of up to 1,000 characters form-encoded (9 bytes each at most), CSRF token, callback URL. */
export const AUTH_BODY_MAX_BYTES = 16 * 1024;
/** tRPC: its largest input is an article, whose content may take 6 bytes a character as JSON (\u escapes), with its title and fields. */
export const TRPC_BODY_MAX_BYTES = ARTICLE_CONTENT_MAX_CHARS * 6 + 64 * 1024;
/** Every other path (pages, help, keys, health): none takes a body of its own. */
export const DEFAULT_BODY_MAX_BYTES = 16 * 1024;
/**
 * The largest body per path prefix. `null`: the route reads its own body as a stream within its
 * limit, in the order its errors must come (the messages API checks the key before the body, and
 * answers an oversized body with the spec's 400 `Invalid request`, conversations/limits.ts's
 * MESSAGE_BODY_MAX_BYTES).
 */
const BODY_LIMITS: ReadonlyArray<readonly [pathPrefix: string, bytes: number | null]> = [
  ["/api/auth/", AUTH_BODY_MAX_BYTES],
  ["/api/trpc/", TRPC_BODY_MAX_BYTES],
  ["/api/agent/", null],
  ["/api/panel/imports", null],
  ["/api/panel/images", null],
];

/**
 * The largest request body the server entry lets through on a path (without its query); null when
 * the route limits it itself. Chosen by the path as routing reads it, so that no spelling of it
 * (`/api/agent/../auth/...`) escapes the limit of the route that answers.
 */
export function bodyLimitForPath(pathname: string): number | null {
  const routed = routedPath(pathname);
  const entry = BODY_LIMITS.find(([prefix]) => routed.startsWith(prefix));
  return entry ? entry[1] : DEFAULT_BODY_MAX_BYTES;
}

/** Saved replies per workspace. */
export const SAVED_REPLIES_MAX = 200;
/** Calls one tRPC batch request may hold (the panel's client batches at most this many). */
export const PANEL_BATCH_CALLS_MAX = 10;

/** Webhooks: endpoints per workspace, URL length. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
export const WEBHOOK_URL_MAX_CHARS = 2_048;
/** A widget connection's slot expires this long after its last renewal, so the slots of a crashed instance free themselves. */
export const WIDGET_CONNECTION_SLOT_TTL_MS = 90_000;
/** The longest an SMTP connection, greeting or send may take before the email counts as not sent. */
export const MAIL_TIMEOUT_MS = 10_000;
