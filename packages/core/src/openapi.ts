// The OpenAPI 3.1 document of Parley's public HTTP routes (GET /api/openapi.json, the /docs page,
// the typed client's checks), with the webhooks Parley sends (the `webhooks` section, from the payload
// schemas of webhooks/schemas.ts). Built with zod-openapi from the very zod schemas the handlers parse
// with (messages/schema.ts, help/articles.ts) and the schemas of what they return
// (messages/response-schema.ts, help/schemas.ts); every status and `error` text comes from
// errors.ts and every number from limits.ts, so the document cannot drift from the code. The
// conformance tests validate real responses of every route against it.
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathItemObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { ERRORS, type ErrorCode } from "./errors.ts";
import { articleListQuerySchema } from "./help/articles.ts";
import { helpArticleResponseSchema, helpArticlesResponseSchema, helpCollectionsResponseSchema } from "./help/schemas.ts";
import { helpArticleUrl } from "./help/urls.ts";
import { AGENT_KEY_PREFIX, AGENT_KEY_RANDOM_BYTES } from "./keys.ts";
import {
  CLIENT_VARIABLE_VALUE_MAX_CHARS,
  CLIENT_VARIABLES_MAX_KEYS,
  FAILED_KEY_ATTEMPTS_PER_MINUTE,
  HELP_ARTICLES_PER_LIST,
  HELP_CACHE_CONTROL,
  HELP_CACHE_SECONDS,
  HELP_QUERY_MAX_CHARS,
  HELP_REQUESTS_PER_MINUTE,
  IDEMPOTENCY_KEY_MAX_CHARS,
  IDEMPOTENCY_TTL_HOURS,
  MESSAGE_BODY_MAX_BYTES,
  MESSAGE_MAX_CHARS,
  MESSAGES_PER_MINUTE,
  WEBHOOK_FAILING_DISABLE_MS,
  WEBHOOK_RETRY_AFTER_MAX_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_TIMEOUT_MS,
} from "./limits.ts";
import { messageResponseSchema } from "./messages/response-schema.ts";
import { messageRequestSchema } from "./messages/schema.ts";
import { WEBHOOK_HEADERS, WEBHOOK_PAYLOAD_SCHEMAS, webhookTestPayloadSchema } from "./webhooks/schemas.ts";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from "./webhooks/types.ts";

/**
 * The version of the public API this document describes (semver). Within major version 1 only
 * additive changes are made (minor: new optional fields, operations, error texts; patch: wording);
 * see the README's "Versioning and compatibility".
 */
export const API_VERSION = "1.0.0";

/** Longest X-Request-Id the server echoes (longer ones are cut; rest.ts). */
const REQUEST_ID_MAX_CHARS = 128;
/** next-auth v4's session cookie; the `__Secure-` name when the app is served over https. */
const SESSION_COOKIE = "next-auth.session-token";
const KEYS_CACHE_CONTROL = "no-store";

/** The generated document (plain JSON data). */
export type OpenApiDocument = ReturnType<typeof createDocument>;

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
const helpCacheControlHeader = z.literal(HELP_CACHE_CONTROL).meta({
  description: `Help responses (404s included) may be cached privately for ${HELP_CACHE_SECONDS} seconds; an unpublished article disappears within that time.`,
});
const keysCacheControlHeader = z.literal(KEYS_CACHE_CONTROL).meta({ description: "Nothing about keys is cached." });
const helpNoStoreHeader = z.literal("no-store").meta({
  description: "A refusal or a failure is not cached: the retry reaches the server.",
});

type Presence = "required" | "optional";

interface HeaderSet {
  rateLimit?: Presence;
  retryAfter?: boolean;
  wwwAuthenticate?: boolean;
  idempotentReplayed?: boolean;
  cacheControl?: z.ZodType;
  /** The methods a path serves (on 405). */
  allow?: readonly string[];
}

/** The response headers of one response; X-Request-Id is on every response of every route. */
function responseHeaders(set: HeaderSet) {
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

/** Example `details` of 400s, as the validation really words them. */
const INVALID_REQUEST_EXAMPLE = "message: must not be empty";

function errorResponse(
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
function methodNotAllowedResponse(allow: readonly string[]): ZodOpenApiResponseObject {
  return errorResponse(["METHOD_NOT_ALLOWED"], { allow }, { description: `Any method but ${allow.join(", ")} on this path.` });
}

// ---------------------------------------------------------------------------------------------
// Parameters

const agentIdParam = z
  .string()
  .min(1)
  .meta({ description: "The agent's id.", examples: ["demo"] });

const idempotencyKeyParam = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX_CHARS)
  .meta({
    description: `Makes a send safe to retry: a request with a key used in the last ${IDEMPOTENCY_TTL_HOURS} hours and the same body gets the stored response (\`Idempotent-Replayed: true\`) instead of a second turn; with a different body, 409. 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters; a UUID per message is ideal (the typed client sends one automatically).`,
    examples: ["2f1c7c1e-8d3b-4b0a-9a55-6a0f3e0c9b21"],
  });

const requestIdParam = z
  .string()
  .meta({ description: "Your own id for this request; echoed in the X-Request-Id response header.", examples: ["req-123"] });

// ---------------------------------------------------------------------------------------------
// Operations

const EXAMPLE_CONVERSATION_ID = "cmi3x8k2p0000qz0l4b7c9d1e";

const MESSAGE_REQUEST_EXAMPLES = {
  start: {
    summary: "Start a conversation",
    value: {
      message: "How do I get a refund?",
      visitor: { name: "Ada", email: "ada@example.com" },
      clientVariables: { plan: "pro" },
    },
  },
  continue: {
    summary: "Continue it (send back the conversationId)",
    value: { message: "How long does a refund take?", conversationId: EXAMPLE_CONVERSATION_ID },
  },
  handoff: {
    summary: "Ask for a person",
    value: { message: "Can I talk to a human?", conversationId: EXAMPLE_CONVERSATION_ID },
  },
};

function messageResponseExamples(appUrl: string) {
  return {
    answered: {
      summary: "An answer from the knowledge base",
      value: {
        conversationId: EXAMPLE_CONVERSATION_ID,
        reply: "Hi Ada, from “Refund policy and how to request a refund”: You can request a refund within 30 days of a charge.",
        tokenUsage: 412,
        toolCalls: [{ name: "search_knowledge_base", args: { query: "How do I get a refund?" } }],
        richContent: [
          {
            type: "articles",
            articles: [
              { id: "art-refunds", title: "Refund policy and how to request a refund", url: helpArticleUrl(appUrl, "demo", "art-refunds") },
            ],
          },
        ],
        handoffRequested: false,
        status: "active",
      },
    },
    unanswered: {
      summary: "No answer found: a button to ask for a person",
      value: {
        conversationId: EXAMPLE_CONVERSATION_ID,
        reply:
          "I'm sorry, I don't know the answer to that: I couldn't find it in our help articles. You can rephrase your question, or talk to a person.",
        tokenUsage: 51,
        toolCalls: [{ name: "search_knowledge_base", args: { query: "Do you ship to Mars?" } }],
        richContent: [{ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] }],
        handoffRequested: false,
        status: "active",
      },
    },
    handoff: {
      summary: "A person was asked for",
      value: {
        conversationId: EXAMPLE_CONVERSATION_ID,
        reply: "Of course. I've asked a person from our team to take over this conversation; they will follow up here.",
        tokenUsage: 38,
        toolCalls: [{ name: "request_human", args: { reason: "The visitor asked for a person." } }],
        richContent: [],
        handoffRequested: true,
        status: "escalated",
      },
    },
  };
}

const INTERNAL_HELP = errorResponse(["INTERNAL"], { cacheControl: helpNoStoreHeader, rateLimit: "optional" });

function sendMessageOperation(appUrl: string): ZodOpenApiOperationObject {
  const afterLimiter: HeaderSet = { rateLimit: "required" };
  return {
    operationId: "sendMessage",
    tags: ["Messages"],
    summary: "Send a message",
    description: [
      "Sends one message to the agent and returns its reply. Omit `conversationId` to start a conversation; send it back to continue.",
      "",
      `Checks run in this order: agent (404), HTTP API enabled (403), bearer key (401), rate limit of ${MESSAGES_PER_MINUTE} requests a minute per agent (429), body (400), Idempotency-Key (409), conversation (404), quotas (402).`,
      `The body is JSON of at most ${MESSAGE_BODY_MAX_BYTES} bytes; unknown fields are rejected.`,
      `Failed keys count against ${FAILED_KEY_ATTEMPTS_PER_MINUTE} a minute per client IP; past that, 429 until the window passes.`,
      "",
      "Client guidance: never retry 400, 401, 403, 404 or 409 unchanged; on 429 wait `Retry-After` (or back off 1 s, 2 s, 4 s); on 402 alert the operator (monthly quota or usage limit, no retry fixes it); retry 500 and network errors with the same `Idempotency-Key`.",
    ].join("\n"),
    security: [{ bearerAuth: [] }],
    requestParams: {
      path: z.object({ agentId: agentIdParam }),
      header: z.object({ "Idempotency-Key": idempotencyKeyParam.optional(), "X-Request-Id": requestIdParam.optional() }),
    },
    requestBody: {
      required: true,
      content: { "application/json": { schema: messageRequestSchema, examples: MESSAGE_REQUEST_EXAMPLES } },
    },
    responses: {
      "200": {
        description: "The agent's reply.",
        headers: responseHeaders({ ...afterLimiter, idempotentReplayed: true }),
        content: { "application/json": { schema: messageResponseSchema, examples: messageResponseExamples(appUrl) } },
      },
      "400": errorResponse(["INVALID_REQUEST"], afterLimiter, {
        description: `Body or header validation failed: message 1 to ${MESSAGE_MAX_CHARS} characters and not blank, at most ${CLIENT_VARIABLES_MAX_KEYS} clientVariables of at most ${CLIENT_VARIABLE_VALUE_MAX_CHARS} characters, Content-Type application/json, Idempotency-Key 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters.`,
        detailsExample: INVALID_REQUEST_EXAMPLE,
      }),
      "401": errorResponse(
        ["MISSING_BEARER_TOKEN", "KEY_NOT_CONFIGURED", "INVALID_BEARER_TOKEN"],
        { wwwAuthenticate: true },
        {
          description: "Do not retry unchanged.",
        },
      ),
      "402": errorResponse(["CONVERSATION_QUOTA_EXHAUSTED", "TOKEN_QUOTA_EXHAUSTED", "USAGE_LIMIT_REACHED"], afterLimiter, {
        description: "Alert the operator: the agent's monthly limits (set in its settings) are reached; retrying does not help.",
      }),
      "403": errorResponse(["HTTP_API_DISABLED"], {}),
      "404": errorResponse(["AGENT_NOT_FOUND", "CONVERSATION_NOT_FOUND"], { rateLimit: "optional" }),
      "405": methodNotAllowedResponse(["POST"]),
      "409": errorResponse(["IDEMPOTENCY_CONFLICT"], afterLimiter),
      "429": errorResponse(
        ["RATE_LIMITED"],
        { rateLimit: "optional", retryAfter: true },
        {
          description: `Over ${MESSAGES_PER_MINUTE} requests a minute for the agent, or a wrong key from an IP that already sent ${FAILED_KEY_ATTEMPTS_PER_MINUTE} wrong keys within the minute (a valid key still passes).`,
        },
      ),
      "500": errorResponse(["INTERNAL"], { rateLimit: "optional" }),
    },
  };
}

const helpHeaders: HeaderSet = { cacheControl: helpCacheControlHeader, rateLimit: "required" };

const helpErrors = {
  "404": errorResponse(["NOT_FOUND"], helpHeaders, {
    description: "The agent is unknown or inactive, or the article is unknown, unpublished, inactive or not in the agent's collections.",
  }),
  "405": methodNotAllowedResponse(["GET", "HEAD"]),
  "429": errorResponse(
    ["RATE_LIMITED"],
    { ...helpHeaders, cacheControl: helpNoStoreHeader, retryAfter: true },
    {
      description: `Over ${HELP_REQUESTS_PER_MINUTE} requests a minute from your IP for this agent.`,
    },
  ),
  "500": INTERNAL_HELP,
} satisfies Record<string, ZodOpenApiResponseObject>;

const helpPathParams = z.object({ agentId: agentIdParam });

const helpCollectionsOperation: ZodOpenApiOperationObject = {
  operationId: "listHelpCollections",
  tags: ["Help centre"],
  summary: "List help collections",
  description: "The agent's collections (sources) that hold at least one published article, by name. No authentication.",
  security: [],
  requestParams: { path: helpPathParams },
  responses: {
    "200": {
      description: "The collections.",
      headers: responseHeaders(helpHeaders),
      content: {
        "application/json": {
          schema: helpCollectionsResponseSchema,
          examples: {
            demo: {
              summary: "The demo agent",
              value: {
                data: {
                  collections: [
                    { id: "src-billing", name: "Billing", count: 2 },
                    { id: "src-start", name: "Getting started", count: 3 },
                  ],
                },
              },
            },
          },
        },
      },
    },
    ...helpErrors,
  },
};

const helpArticlesOperation: ZodOpenApiOperationObject = {
  operationId: "listHelpArticles",
  tags: ["Help centre"],
  summary: "List or search help articles",
  description: `At most ${HELP_ARTICLES_PER_LIST} published articles, most recently updated first, optionally of one collection and matching \`q\` (words and substrings of titles and content). No authentication.`,
  security: [],
  requestParams: { path: helpPathParams, query: articleListQuerySchema },
  responses: {
    "200": {
      description: "The matching articles.",
      headers: responseHeaders(helpHeaders),
      content: {
        "application/json": {
          schema: helpArticlesResponseSchema,
          examples: {
            search: {
              summary: "Searching for “refund”",
              value: {
                data: {
                  articles: [
                    {
                      id: "art-refunds",
                      sourceId: "src-billing",
                      title: "Refund policy and how to request a refund",
                      excerpt: "You can request a refund within 30 days of a charge…",
                    },
                  ],
                },
              },
            },
          },
        },
      },
    },
    "400": errorResponse(["INVALID_REQUEST"], helpHeaders, {
      description: `\`q\` is longer than ${HELP_QUERY_MAX_CHARS} characters.`,
      detailsExample: `q: must be at most ${HELP_QUERY_MAX_CHARS} characters`,
    }),
    ...helpErrors,
  },
};

const helpArticleOperation: ZodOpenApiOperationObject = {
  operationId: "getHelpArticle",
  tags: ["Help centre"],
  summary: "Read a help article",
  description: "One published article, its content in Markdown. No authentication.",
  security: [],
  requestParams: {
    path: z.object({
      agentId: agentIdParam,
      itemId: z
        .string()
        .min(1)
        .meta({ description: "The article's id.", examples: ["art-refunds"] }),
    }),
  },
  responses: {
    "200": {
      description: "The article.",
      headers: responseHeaders(helpHeaders),
      content: {
        "application/json": {
          schema: helpArticleResponseSchema,
          examples: {
            refunds: {
              summary: "An article",
              value: {
                data: {
                  id: "art-refunds",
                  sourceId: "src-billing",
                  sourceName: "Billing",
                  title: "Refund policy and how to request a refund",
                  content: "## Refunds\n\nYou can request a refund within 30 days of a charge.",
                  updatedAt: "2026-09-29T13:45:00.000Z",
                },
              },
            },
          },
        },
      },
    },
    ...helpErrors,
  },
};

/** The body of a generated key; `satisfies` in test/openapi.test.ts ties it to admin/keys.ts. */
export const issuedKeyResponseSchema = z
  .object({
    data: z.object({
      key: z
        .string()
        .regex(new RegExp(`^${AGENT_KEY_PREFIX}[A-Za-z0-9_-]{${Math.ceil((AGENT_KEY_RANDOM_BYTES * 4) / 3)}}$`))
        .meta({ description: "The new key. Shown this once: store it in your backend's secrets; only its hash is kept." }),
      last4: z.string().length(4).meta({ description: "The key's last 4 characters, shown in the panel to recognise it." }),
      createdAt: z.iso.datetime().meta({ examples: ["2026-11-20T12:00:00.000Z"] }),
    }),
  })
  .meta({ id: "IssuedKeyResponse" });

const keyHeaders: HeaderSet = { cacheControl: keysCacheControlHeader };

const keyErrors = {
  "401": errorResponse(["UNAUTHORIZED"], keyHeaders),
  "403": errorResponse(["FORBIDDEN"], keyHeaders),
  "404": errorResponse(["AGENT_NOT_FOUND"], keyHeaders),
  "405": methodNotAllowedResponse(["POST", "DELETE"]),
  "500": errorResponse(["INTERNAL"], keyHeaders),
} satisfies Record<string, ZodOpenApiResponseObject>;

const keyPathParams = z.object({ agent_id: agentIdParam });

const createKeyOperation: ZodOpenApiOperationObject = {
  operationId: "createHttpApiKey",
  tags: ["Keys"],
  summary: "Generate or rotate the agent's HTTP API key",
  description:
    "Generates the agent's key, or replaces it: the previous key stops working on the very next request. Control-panel session only (not an integration API); rotate by generating, updating your backend, then verifying with a test request.",
  security: [{ sessionCookie: [] }],
  requestParams: { path: keyPathParams },
  responses: {
    "201": {
      description: "The new key, shown once.",
      headers: responseHeaders(keyHeaders),
      content: {
        "application/json": {
          schema: issuedKeyResponseSchema,
          examples: {
            issued: {
              summary: "A new key",
              value: { data: { key: `${AGENT_KEY_PREFIX}${"x".repeat(39)}Q2aZ`, last4: "Q2aZ", createdAt: "2026-11-20T12:00:00.000Z" } },
            },
          },
        },
      },
    },
    ...keyErrors,
  },
};

const revokeKeyOperation: ZodOpenApiOperationObject = {
  operationId: "revokeHttpApiKey",
  tags: ["Keys"],
  summary: "Revoke the agent's HTTP API key",
  description:
    "Removes the key: sends answer `401 HTTP API key not configured` until a new one is generated. Also 204 when there was no key. Control-panel session only.",
  security: [{ sessionCookie: [] }],
  requestParams: { path: keyPathParams },
  responses: {
    "204": { description: "Revoked (or there was no key).", headers: responseHeaders(keyHeaders) },
    ...keyErrors,
  },
};

// ---------------------------------------------------------------------------------------------
// Webhooks: what Parley POSTs to an integrator's endpoint, one entry per event type

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
      requestParams: { header: webhookHeaderParams },
      requestBody: { required: true, content: { "application/json": { schema } } },
      responses: WEBHOOK_RESPONSES,
    },
  };
}

/** The `webhooks` section: every event type of webhooks/types.ts, and the panel's test event. */
function webhookEntries(): Record<string, ZodOpenApiPathItemObject> {
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

// ---------------------------------------------------------------------------------------------
// The document

const DESCRIPTION = `Parley hosts conversational agents. Integrators talk to an agent from their backend with the
agent's HTTP API key (\`Authorization: Bearer pk_...\`, server to server only); the help centre is public
and read-only; the key routes belong to the control panel and need its session.

**Errors** always have the body \`{"error": "<short message>", "details": "<optional>"}\`; each response
below lists its exact \`error\` texts. Every response carries \`X-Request-Id\`.

**Rate limits**: ${MESSAGES_PER_MINUTE} messages a minute per agent; ${HELP_REQUESTS_PER_MINUTE} help requests a minute per client IP and agent.
Limited responses carry \`RateLimit-Policy\` and \`RateLimit\` (IETF draft); a 429 carries \`Retry-After\`.

**Versioning**: this is version ${API_VERSION} (\`info.version\`). Within major version 1 changes are additive only:
new optional request fields, new response fields, new operations, new \`richContent\` types, new error texts
for existing statuses. Ignore fields and rich-content types you do not know. A breaking change would come as
\`/api/v2/...\` paths, announced with a deprecation period during which v1 responses carry
\`Deprecation\` and \`Sunset\` headers.`;

const cache = new Map<string, OpenApiDocument>();

/** The document for a deployment whose public base URL is `appUrl` (no trailing slash). Cached. */
export function buildOpenApiDocument(options: { appUrl: string }): OpenApiDocument {
  const appUrl = options.appUrl.replace(/\/$/, "");
  const cached = cache.get(appUrl);
  if (cached) return cached;
  const secure = appUrl.startsWith("https://");
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: API_VERSION,
      description: DESCRIPTION,
    },
    servers: [{ url: appUrl, description: "This Parley deployment (APP_URL)" }],
    tags: [
      { name: "Messages", description: "The agent HTTP API (per-agent key)." },
      { name: "Help centre", description: "Published knowledge-base articles (public, read-only)." },
      { name: "Keys", description: "The agent's HTTP API key (control-panel session)." },
      { name: "Webhooks", description: "Events Parley POSTs to the endpoints a workspace adds in the control panel (signed, retried)." },
    ],
    paths: {
      "/api/agent/{agentId}/messages": { post: sendMessageOperation(appUrl) },
      "/api/agent/{agentId}/help": { get: helpCollectionsOperation },
      "/api/agent/{agentId}/help/articles": { get: helpArticlesOperation },
      "/api/agent/{agentId}/help/articles/{itemId}": { get: helpArticleOperation },
      "/api/agents/{agent_id}/http-api-key": { post: createKeyOperation, delete: revokeKeyOperation },
    },
    webhooks: webhookEntries(),
    components: {
      schemas: { Error: errorBodySchema },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${AGENT_KEY_PREFIX}...`,
          description:
            "The agent's HTTP API key. One key per agent; shown once at generation; generating again replaces it at once. Keep it in your backend, never in a browser.",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: secure ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE,
          description:
            "The control panel's next-auth session cookie (sign in at /signin). Cross-site requests are refused (403) even with a valid cookie.",
        },
      },
    },
  });
  cache.set(appUrl, document);
  return document;
}
