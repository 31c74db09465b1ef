// Errors: AppError, and how a module declares the errors it throws. Each module's errors.ts holds its own
// codes (HTTP status and the spec's `error` text for REST, the tRPC code for the panel, and the
// documentation: meaning and action) next to its code; here are the generic codes platform code throws
// and every module shares. error-table.ts at the top of core assembles the one public table.
import { PANEL_BATCH_CALLS_MAX } from "./limits.ts";

/** The tRPC codes errors map to (a subset of tRPC's own). */
export type TrpcErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR";

/** One error as a module declares it: its responses and what it means for an integrator (`meaning`) and what to do (`action`). */
export interface ErrorSpec {
  status: number;
  message: string;
  trpc: TrpcErrorCode;
  meaning: string;
  action: string;
}

/** A declared error with its code: what `new AppError(...)` takes and adapters read. */
export interface ErrorDefinition<Code extends string = string> extends ErrorSpec {
  code: Code;
}

/** A module's error table: each entry gets its key as its `code`. */
export function defineErrors<Table extends Record<string, ErrorSpec>>(
  table: Table,
): { readonly [Code in keyof Table & string]: ErrorDefinition<Code> } {
  const entries = Object.entries(table).map(([code, spec]) => [code, { code, ...spec }]);
  return Object.fromEntries(entries) as { readonly [Code in keyof Table & string]: ErrorDefinition<Code> };
}

export const PLATFORM_ERRORS = defineErrors({
  INVALID_REQUEST: {
    status: 400,
    message: "Invalid request",
    trpc: "BAD_REQUEST",
    meaning: "The request is malformed; `details` names each field and rule. Do not retry unchanged.",
    action: "Fix each field `details` names, then send the corrected request.",
  },
  BATCH_TOO_LARGE: {
    status: 400,
    message: "Too many calls in one batch",
    trpc: "BAD_REQUEST",
    meaning: `A control-panel tRPC batch held more than ${PANEL_BATCH_CALLS_MAX} calls; none of them ran.`,
    action: `Send at most ${PANEL_BATCH_CALLS_MAX} calls per batch (the tRPC client's \`maxItems\`).`,
  },
  UNAUTHORIZED: {
    status: 401,
    message: "Unauthorized",
    trpc: "UNAUTHORIZED",
    meaning: "No valid control-panel session cookie.",
    action: "Sign in to the control panel again.",
  },
  FORBIDDEN: {
    status: 403,
    message: "Forbidden",
    trpc: "FORBIDDEN",
    meaning: "A cross-site request (foreign `Origin` or `Sec-Fetch-Site: cross-site`) with a session cookie.",
    action: "Make the request from the control panel's own origin.",
  },
  NOT_FOUND: {
    status: 404,
    message: "Not found",
    trpc: "NOT_FOUND",
    meaning: "Unknown, unpublished or inactive: all look the same.",
    action: "Check the ids in the URL; an unpublished article or an inactive agent stays hidden.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: "Method not allowed",
    trpc: "METHOD_NOT_SUPPORTED",
    meaning: "This path does not serve the method; `Allow` names the ones it does.",
    action: "Use one of the methods the `Allow` header names.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    message: "Payload too large",
    trpc: "PAYLOAD_TOO_LARGE",
    meaning: "The request body is larger than this route accepts; `details` says the limit. Do not retry unchanged.",
    action: "Send a smaller body (at most the limit `details` names).",
  },
  RATE_LIMITED: {
    status: 429,
    message: "Rate limit exceeded",
    trpc: "TOO_MANY_REQUESTS",
    meaning: "Too many requests: wait `Retry-After` seconds.",
    action: "Wait the `Retry-After` seconds (or back off 1 s, 2 s, 4 s), then retry.",
  },
  INTERNAL: {
    status: 500,
    message: "Internal error",
    trpc: "INTERNAL_SERVER_ERROR",
    meaning: "Something failed on our side; nothing was stored. Safe to retry (with the same Idempotency-Key for messages).",
    action: "Retry after a moment (messages: with the same Idempotency-Key); if it persists, quote the `X-Request-Id` to support.",
  },
});

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

/** A platform code by name, or a module's error definition. */
export type ErrorRef = PlatformErrorCode | ErrorDefinition;

export function errorDefinition(error: ErrorRef): ErrorDefinition {
  return typeof error === "string" ? PLATFORM_ERRORS[error] : error;
}

/** The spec's error body (section 2.7). */
export interface ErrorBody {
  error: string;
  details?: string;
}

export class AppError extends Error {
  readonly definition: ErrorDefinition;
  readonly code: string;
  readonly details?: string;
  /** Extra response headers (Retry-After, WWW-Authenticate, RateLimit...). */
  readonly headers: Record<string, string>;

  constructor(error: ErrorRef, options: { details?: string; headers?: Record<string, string> } = {}) {
    const definition = errorDefinition(error);
    super(definition.message);
    this.name = "AppError";
    this.definition = definition;
    this.code = definition.code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return this.definition.status;
  }

  /** The tRPC code the panel's procedures answer with. */
  get trpc(): TrpcErrorCode {
    return this.definition.trpc;
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { error: this.message } : { error: this.message, details: this.details };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
