// Every error Parley returns, in one table: HTTP status and the spec's `error` text for REST,
// the tRPC code for the panel. Core code throws AppError; adapters map it with this table.
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLE_TITLE_MAX_CHARS, ARTICLES_PER_SOURCE_MAX } from "./limits.ts";

export const ERRORS = {
  INVALID_REQUEST: { status: 400, message: "Invalid request", trpc: "BAD_REQUEST" },
  BATCH_TOO_LARGE: { status: 400, message: "Too many calls in one batch", trpc: "BAD_REQUEST" },
  UNAUTHORIZED: { status: 401, message: "Unauthorized", trpc: "UNAUTHORIZED" },
  MISSING_BEARER_TOKEN: { status: 401, message: "Missing bearer token", trpc: "UNAUTHORIZED" },
  INVALID_BEARER_TOKEN: { status: 401, message: "Invalid bearer token", trpc: "UNAUTHORIZED" },
  KEY_NOT_CONFIGURED: { status: 401, message: "HTTP API key not configured", trpc: "UNAUTHORIZED" },
  CONVERSATION_QUOTA_EXHAUSTED: { status: 402, message: "Monthly conversation quota exhausted", trpc: "FORBIDDEN" },
  TOKEN_QUOTA_EXHAUSTED: { status: 402, message: "Monthly token quota exhausted", trpc: "FORBIDDEN" },
  USAGE_LIMIT_REACHED: { status: 402, message: "Usage limit reached", trpc: "FORBIDDEN" },
  VOICE_QUOTA_EXHAUSTED: { status: 402, message: "Monthly voice minutes exhausted", trpc: "FORBIDDEN" },
  HTTP_API_DISABLED: { status: 403, message: "HTTP API disabled for this agent", trpc: "FORBIDDEN" },
  FORBIDDEN: { status: 403, message: "Forbidden", trpc: "FORBIDDEN" },
  AGENT_NOT_FOUND: { status: 404, message: "Agent not found", trpc: "NOT_FOUND" },
  CONVERSATION_NOT_FOUND: { status: 404, message: "Conversation not found", trpc: "NOT_FOUND" },
  NOT_FOUND: { status: 404, message: "Not found", trpc: "NOT_FOUND" },
  SOURCE_NOT_FOUND: { status: 404, message: "Source not found", trpc: "NOT_FOUND" },
  ARTICLE_NOT_FOUND: { status: 404, message: "Article not found", trpc: "NOT_FOUND" },
  TRANSLATION_ORIGINAL_NOT_FOUND: { status: 404, message: "The original article was not found in this workspace", trpc: "NOT_FOUND" },
  TEAM_MEMBER_NOT_FOUND: { status: 404, message: "Team member not found", trpc: "NOT_FOUND" },
  INVITATION_NOT_VALID: {
    status: 404,
    message: "This invitation link is not valid: it may have expired or been used already. Ask for a new invitation.",
    trpc: "NOT_FOUND",
  },
  LAST_OWNER: {
    status: 409,
    message: "The workspace needs at least one active owner. Make someone else an owner first.",
    trpc: "CONFLICT",
  },
  PERSON_EXISTS: { status: 409, message: "A person with this email address already has an account", trpc: "CONFLICT" },
  WRONG_CURRENT_PASSWORD: { status: 400, message: "The current password is not correct", trpc: "BAD_REQUEST" },
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: "Webhook endpoint not found", trpc: "NOT_FOUND" },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: "Webhook delivery not found", trpc: "NOT_FOUND" },
  SAVED_REPLY_NOT_FOUND: { status: 404, message: "Saved reply not found", trpc: "NOT_FOUND" },
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    message:
      "Webhook URLs must use https://, without a user name or password, and must not point to a private, loopback or link-local address",
    trpc: "BAD_REQUEST",
  },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed", trpc: "METHOD_NOT_SUPPORTED" },
  WEBHOOK_ENDPOINT_DISABLED: { status: 409, message: "Enable the endpoint first", trpc: "CONFLICT" },
  WEBHOOK_ENDPOINTS_LIMIT: { status: 409, message: "This workspace has the most webhook endpoints allowed", trpc: "CONFLICT" },
  AGENT_ID_TAKEN: { status: 409, message: "An agent with this id already exists", trpc: "CONFLICT" },
  ARTICLE_SLUG_TAKEN: { status: 409, message: "Another article of this source already uses this slug", trpc: "CONFLICT" },
  ARTICLES_PER_SOURCE_LIMIT: {
    status: 409,
    message: `This source holds its maximum of ${ARTICLES_PER_SOURCE_MAX.toLocaleString("en-US")} articles: delete some, or put new ones in another source`,
    trpc: "CONFLICT",
  },
  ARTICLE_REVISION_TOO_LONG: {
    status: 409,
    message: `This version is longer than an article may be (a title of ${ARTICLE_TITLE_MAX_CHARS} characters, content of ${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")}), so it cannot be restored`,
    trpc: "CONFLICT",
  },
  TRANSLATION_OF_ITSELF: { status: 400, message: "An article cannot be a translation of itself", trpc: "BAD_REQUEST" },
  TRANSLATION_OF_TRANSLATION: {
    status: 409,
    message: "That article is itself a translation: choose the original it translates",
    trpc: "CONFLICT",
  },
  TRANSLATION_HAS_TRANSLATIONS: {
    status: 409,
    message: "This article is the original of other translations, so it cannot be a translation itself",
    trpc: "CONFLICT",
  },
  IMPORT_JOB_NOT_FOUND: { status: 404, message: "Import not found", trpc: "NOT_FOUND" },
  SAVED_REPLY_TITLE_TAKEN: { status: 409, message: "A saved reply with this title already exists", trpc: "CONFLICT" },
  SAVED_REPLIES_LIMIT: { status: 409, message: "This workspace has the most saved replies allowed", trpc: "CONFLICT" },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: "Idempotency-Key reused with a different request",
    trpc: "CONFLICT",
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: "Payload too large", trpc: "PAYLOAD_TOO_LARGE" },
  RATE_LIMITED: { status: 429, message: "Rate limit exceeded", trpc: "TOO_MANY_REQUESTS" },
  SIGN_IN_THROTTLED: { status: 429, message: "Too many failed sign-ins. Try again later.", trpc: "TOO_MANY_REQUESTS" },
  INTERNAL: { status: 500, message: "Internal error", trpc: "INTERNAL_SERVER_ERROR" },
} as const satisfies Record<string, { status: number; message: string; trpc: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The spec's error body (section 2.7). */
export interface ErrorBody {
  error: string;
  details?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: string;
  /** Extra response headers (Retry-After, WWW-Authenticate, RateLimit...). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: { details?: string; headers?: Record<string, string> } = {}) {
    super(ERRORS[code].message);
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { error: this.message } : { error: this.message, details: this.details };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
