// What every route family of the OpenAPI document shares: response headers, the error body and
// error responses (texts from errors.ts, meanings from error-docs.ts), the agent id parameter.
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import { ERRORS, type ErrorCode } from "../errors.ts";
import { IDEMPOTENCY_TTL_HOURS, MESSAGES_PER_MINUTE } from "../limits.ts";

/** Longest X-Request-Id the server echoes (longer ones are cut; rest.ts). */
const REQUEST_ID_MAX_CHARS = 128;

// ---------------------------------------------------------------------------------------------
// Headers

const rateLimitPolicyHeader = z
  .string()
  .regex(/^"[a-z-]+";q=\d+;w=\d+$/)
  .meta({
    description:
      "The limit that applies (IETF draft RateLimit headers): `q` requests per `w` seconds for the named policy. Sent once the rate limiter has counted the request.",
    examples: [`"messages";q=${MESSAGES_PER_MINUTE};w=60`],
  });
const rateLimitHeader = z
  .string()
  .regex(/^"[a-z-]+";r=\d+;t=\d+$/)
  .meta({
    description: "The limit's state: `r` requests remaining in the window, `t` seconds until it resets.",
    examples: [`"messages";r=${MESSAGES_PER_MINUTE - 1};t=42`],
  });
const retryAfterHeader = z
  .int()
  .min(1)
  .meta({ description: "Seconds to wait before the next request will be accepted.", examples: [12] });
const requestIdHeader = z
  .string()
  .min(1)
  .max(REQUEST_ID_MAX_CHARS)
  .meta({
    description: `Identifies the request in Parley's logs: your own X-Request-Id (first ${REQUEST_ID_MAX_CHARS} characters) or a generated UUID. Quote it when asking for support.`,
    examples: ["5b0c2f0e-4a53-4c3e-9a39-2c6f1e0b7d11"],
  });
const wwwAuthenticateHeader = z
  .string()
  .regex(/^Bearer realm="parley"/)
  .meta({
    description: 'RFC 6750 challenge: `Bearer realm="parley"`, with `error="invalid_token"` when a token was sent but is wrong.',
    examples: ['Bearer realm="parley", error="invalid_token"'],
  });
const idempotentReplayedHeader = z.literal("true").meta({
  description: "Present when this is the stored response of an earlier request with the same Idempotency-Key (no new turn was run).",
});

export type Presence = "required" | "optional";

export interface HeaderSet {
  rateLimit?: Presence;
  retryAfter?: boolean;
  wwwAuthenticate?: boolean;
  idempotentReplayed?: boolean;
  cacheControl?: z.ZodType;
  /** The methods a path serves (on 405). */
  allow?: readonly string[];
}

/** The response headers of one response; X-Request-Id is on every response of every route. */
export function responseHeaders(set: HeaderSet) {
  const shape: Record<string, z.ZodType> = {};
  if (set.cacheControl) shape["Cache-Control"] = set.cacheControl;
  if (set.rateLimit) {
    shape["RateLimit-Policy"] = set.rateLimit === "required" ? rateLimitPolicyHeader : rateLimitPolicyHeader.optional();
    shape.RateLimit = set.rateLimit === "required" ? rateLimitHeader : rateLimitHeader.optional();
  }
  if (set.retryAfter) shape["Retry-After"] = retryAfterHeader;
  if (set.wwwAuthenticate) shape["WWW-Authenticate"] = wwwAuthenticateHeader;
  if (set.idempotentReplayed) shape["Idempotent-Replayed"] = idempotentReplayedHeader.optional();
  if (set.allow) shape.Allow = z.literal(set.allow.join(", ")).meta({ description: "The methods this path serves." });
  shape["X-Request-Id"] = requestIdHeader;
  return z.object(shape);
}

// ---------------------------------------------------------------------------------------------
// Errors

export const errorBodySchema = z
  .object({
    error: z.string().meta({ description: "A short, stable message: switch on the status, show or log this." }),
    details: z.string().optional().meta({ description: "What exactly was wrong (400: the field and the rule)." }),
  })
  .meta({ id: "Error", description: "Every error has this body (spec 2.7)." });

/** What each error means for an integrator, by code (the texts themselves are in errors.ts). */
const CAUSES: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: "The request is malformed; `details` names each field and rule. Do not retry unchanged.",
  MISSING_BEARER_TOKEN: "No `Authorization: Bearer <key>` header.",
  INVALID_BEARER_TOKEN: "Wrong key, or a key that was rotated or revoked.",
  KEY_NOT_CONFIGURED: "The agent's HTTP API is enabled but no key was generated.",
  UNAUTHORIZED: "No valid control-panel session cookie.",
  CONVERSATION_QUOTA_EXHAUSTED: "The agent's monthly conversation quota is used up (a new conversation would exceed it).",
  TOKEN_QUOTA_EXHAUSTED: "The agent's monthly text-token quota is used up.",
  USAGE_LIMIT_REACHED: "The agent's usage limit is reached.",
  HTTP_API_DISABLED: "The HTTP API is not enabled for this agent.",
  FORBIDDEN: "A cross-site request (foreign `Origin` or `Sec-Fetch-Site: cross-site`) with a session cookie.",
  AGENT_NOT_FOUND: "Unknown agent, an inactive agent, or (key routes) an agent outside your workspace.",
  CONVERSATION_NOT_FOUND: "`conversationId` is not a conversation of this agent.",
  NOT_FOUND: "Unknown, unpublished or inactive: all look the same.",
  IDEMPOTENCY_CONFLICT: `This Idempotency-Key was used in the last ${IDEMPOTENCY_TTL_HOURS} hours with a different request body.`,
  RATE_LIMITED: "Too many requests: wait `Retry-After` seconds.",
  PAYLOAD_TOO_LARGE: "The request body is larger than this route accepts; `details` says the limit. Do not retry unchanged.",
  METHOD_NOT_ALLOWED: "This path does not serve the method; `Allow` names the ones it does.",
  INTERNAL: "Something failed on our side; nothing was stored. Safe to retry (with the same Idempotency-Key for messages).",
};

export function errorResponse(
  codes: readonly ErrorCode[],
  headers: HeaderSet,
  options: { description?: string; detailsExample?: string } = {},
): ZodOpenApiResponseObject {
  const status = ERRORS[codes[0]!].status;
  for (const code of codes) {
    if (ERRORS[code].status !== status) throw new Error(`${code} is not a ${status} error`);
  }
  const texts = codes.map((code) => ERRORS[code].message);
  const error = texts.length === 1 ? z.literal(texts[0]!) : z.enum(texts as [string, ...string[]]);
  const withDetails = options.detailsExample !== undefined;
  const schema = z.object({
    error: error.meta({ description: texts.length === 1 ? "Always this text." : "Exactly one of these texts." }),
    details: withDetails ? z.string().meta({ description: "Each problem as `field: rule`, separated by `; `." }) : z.string().optional(),
  });
  const lines = codes.map((code) => `- \`${ERRORS[code].message}\`: ${CAUSES[code] ?? ""}`);
  return {
    description: [options.description, lines.join("\n")].filter(Boolean).join("\n\n"),
    headers: responseHeaders(headers),
    content: {
      "application/json": {
        schema,
        examples: Object.fromEntries(
          codes.map((code) => [
            code,
            {
              summary: ERRORS[code].message,
              value: withDetails ? { error: ERRORS[code].message, details: options.detailsExample } : { error: ERRORS[code].message },
            },
          ]),
        ),
      },
    },
  };
}

/** Any other method on the operation's path (OpenAPI has no responses per path, so each operation lists it). */
export function methodNotAllowedResponse(allow: readonly string[]): ZodOpenApiResponseObject {
  return errorResponse(["METHOD_NOT_ALLOWED"], { allow }, { description: `Any method but ${allow.join(", ")} on this path.` });
}

// ---------------------------------------------------------------------------------------------
// Parameters

export const agentIdParam = z
  .string()
  .min(1)
  .meta({ description: "The agent's id.", examples: ["demo"] });
