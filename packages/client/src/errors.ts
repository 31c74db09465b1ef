// Typed errors. Every failure of a call is a ParleyError: an HTTP error carries the status and
// the body's `error` and `details`; a network failure or a timeout has status 0. Switch on the
// class (or `status`), log `requestId` when asking for support.

export interface ParleyErrorInit {
  status: number;
  error: string;
  details?: string;
  requestId?: string;
  headers?: Headers;
  cause?: unknown;
}

export class ParleyError extends Error {
  /** HTTP status; 0 when no response arrived (network error, timeout). */
  readonly status: number;
  /** The body's `error` text (exact texts are listed in the OpenAPI document). */
  readonly error: string;
  /** The body's `details` (a 400 names each field and rule). */
  readonly details?: string;
  /** The response's X-Request-Id. */
  readonly requestId?: string;
  readonly headers?: Headers;

  constructor(init: ParleyErrorInit) {
    super(init.status === 0 ? init.error : `${init.status} ${init.error}${init.details ? `: ${init.details}` : ""}`, { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers;
  }
}

/** 400: the request is malformed (`details` says how). Never retried: fix the request. */
export class InvalidRequestError extends ParleyError {}

/** 401: missing, wrong, rotated or unconfigured key. Never retried. */
export class AuthenticationError extends ParleyError {}

/**
 * 402: the agent's monthly conversation or token quota, or its usage limit, is exhausted. Alert
 * the operator: no retry helps until the limit is raised or the month turns.
 */
export class QuotaExceededError extends ParleyError {}

/** 403: the HTTP API is disabled for this agent. Never retried. */
export class PermissionDeniedError extends ParleyError {}

/** 404: unknown or inactive agent, unknown conversation, or a help item that is not visible. */
export class NotFoundError extends ParleyError {}

/** 409: the Idempotency-Key was used with a different request. */
export class ConflictError extends ParleyError {}

/** 429: still rate limited after the retries (or asked to wait longer than allowed). */
export class RateLimitError extends ParleyError {
  /** The server's Retry-After, in seconds, when it sent one. */
  get retryAfterSeconds(): number | undefined {
    const seconds = retryAfterMs(this.headers, Date.now());
    return seconds === undefined ? undefined : Math.ceil(seconds / 1000);
  }
}

/** 5xx: failed on the server's side (retried before this is thrown). */
export class InternalServerError extends ParleyError {}

/** No response: the connection failed (retried before this is thrown). */
export class ConnectionError extends ParleyError {}

/** No response within `timeoutMs` (retried before this is thrown). */
export class TimeoutError extends ConnectionError {}

const BY_STATUS: Record<number, typeof ParleyError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: QuotaExceededError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The error for an HTTP response that is not a success. */
export function errorFromResponse(status: number, headers: Headers, text: string): ParleyError {
  let error = `HTTP ${status}`;
  let details: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown };
    if (typeof body.error === "string") error = body.error;
    if (typeof body.details === "string") details = body.details;
  } catch {
    // Not JSON (a proxy's page): the status says it all.
  }
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : ParleyError);
  return new ErrorClass({ status, error, details, requestId: headers.get("x-request-id") ?? undefined, headers });
}

/** Retry-After (seconds or an HTTP date) in milliseconds from `now`, or undefined. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
