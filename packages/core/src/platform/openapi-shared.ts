// What every route family of the OpenAPI document shares: response headers, the error body and
// error responses (texts and meanings from platform/errors.ts and the modules' errors.ts), the agent id parameter.
import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import { API_DOCS_PATH, errorDocsLink } from "./error-docs.ts";
import { type ErrorRef, errorDefinition } from "./errors.ts";
import { MESSAGES_PER_MINUTE } from "./limits.ts";

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
  /** The errors a response may be (their documentation links). */
  errors?: readonly ErrorRef[];
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
  if (set.errors) shape.Link = errorLinkHeader(set.errors);
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

/** The `Link` header of an error response: the /docs entry of the error it is. */
function errorLinkHeader(errors: readonly ErrorRef[]) {
  const links = errors.map((error) => errorDocsLink(errorDefinition(error).code));
  return (links.length === 1 ? z.literal(links[0]!) : z.enum(links as [string, ...string[]])).meta({
    description: `Where this error is documented (RFC 8288): its entry in the Errors section of the API reference (\`${API_DOCS_PATH}\` on this server), with its meaning and what to do.`,
    examples: [links[0]!],
  });
}

/** A response that is one of `errors` (all of one status): the Error body narrowed to their texts. */
export function errorResponse(
  errors: readonly ErrorRef[],
  headers: HeaderSet,
  options: { description?: string; detailsExample?: string } = {},
): ZodOpenApiResponseObject {
  const definitions = errors.map(errorDefinition);
  const status = definitions[0]!.status;
  for (const definition of definitions) {
    if (definition.status !== status) throw new Error(`${definition.code} is not a ${status} error`);
  }
  const texts = definitions.map((definition) => definition.message);
  const error = texts.length === 1 ? z.literal(texts[0]!) : z.enum(texts as [string, ...string[]]);
  const withDetails = options.detailsExample !== undefined;
  const schema = z.intersection(
    errorBodySchema,
    z.object({
      error: error.meta({ description: texts.length === 1 ? "Always this text." : "Exactly one of these texts." }),
      details: withDetails ? z.string().meta({ description: "Each problem as `field: rule`, separated by `; `." }) : z.string().optional(),
    }),
  );
  const lines = definitions.map((definition) => `- \`${definition.message}\`: ${definition.meaning}`);
  return {
    description: [options.description, lines.join("\n")].filter(Boolean).join("\n\n"),
    headers: responseHeaders({ ...headers, errors }),
    content: {
      "application/json": {
        schema,
        examples: Object.fromEntries(
          definitions.map((definition) => [
            definition.code,
            {
              summary: definition.message,
              value: withDetails ? { error: definition.message, details: options.detailsExample } : { error: definition.message },
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
