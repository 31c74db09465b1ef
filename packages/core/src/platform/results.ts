// What core's public operations answer, whatever carries them (the REST routes over Node or Next,
// the tests): a status, headers and a JSON body or a text. The transport adds only what is its own
// (the request id, the security headers) and writes it.
import { errorDocsLink } from "./error-docs.ts";
import { AppError, isAppError, PLATFORM_ERRORS } from "./errors.ts";
import { describeError, logger } from "./logger.ts";

export interface HttpResult {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** A JSON body; written as `application/json; charset=utf-8`. */
  json?: unknown;
  /** A text body with its own content-type header (the sitemap's XML). */
  text?: string;
  /**
   * A body written piece by piece as it is produced, with its own content-type header (the
   * messages API's `text/event-stream` form); the transport writes each piece at once.
   */
  stream?: AsyncIterable<string>;
  /** A binary body with its own content-type header (an uploaded image). */
  bytes?: Uint8Array;
}

export function jsonResult(json: unknown, status = 200, headers: Record<string, string> = {}): HttpResult {
  return { status, headers, json };
}

/**
 * The spec's error body for an AppError (its status and headers over `headers`); anything else is
 * logged (class and message, never a stack) and becomes 500 `Internal error`. Every error links
 * its documentation (`Link: </docs#errors-...>; rel="help"`).
 */
export function errorResult(error: unknown, headers: Record<string, string> = {}): HttpResult {
  if (isAppError(error)) return jsonResult(error.toBody(), error.status, { ...headers, link: errorDocsLink(error.code), ...error.headers });
  logger.error("unhandled error", { error: describeError(error) });
  return jsonResult({ error: PLATFORM_ERRORS.INTERNAL.message }, PLATFORM_ERRORS.INTERNAL.status, {
    ...headers,
    link: errorDocsLink("INTERNAL"),
  });
}

/** 405 `Method not allowed` naming the methods the route serves. */
export function methodNotAllowedResult(allow: readonly string[]): HttpResult {
  return errorResult(new AppError("METHOD_NOT_ALLOWED", { headers: { allow: allow.join(", ") } }));
}
