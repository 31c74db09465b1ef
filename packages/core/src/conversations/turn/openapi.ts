// The OpenAPI document's Messages family: POST /api/agent/{agentId}/messages (the agent HTTP API,
// per-agent bearer key), its examples and its security scheme.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiSecuritySchemeObject } from "zod-openapi";
import { AGENTS_ERRORS } from "../../agents/errors.ts";
import { AGENT_KEY_PREFIX } from "../../agents/keys/secrets.ts";
import { helpArticleUrl } from "../../help/urls.ts";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { FAILED_KEY_ATTEMPTS_PER_MINUTE, IDEMPOTENCY_TTL_HOURS, MESSAGES_PER_MINUTE } from "../../platform/limits.ts";
import { agentIdParam, errorResponse, type HeaderSet, methodNotAllowedResponse, responseHeaders } from "../../platform/openapi-shared.ts";
import { USAGE_ERRORS } from "../../usage/errors.ts";
import { CONVERSATIONS_ERRORS } from "../errors.ts";
import {
  CLIENT_VARIABLE_VALUE_MAX_CHARS,
  CLIENT_VARIABLES_MAX_KEYS,
  IDEMPOTENCY_KEY_MAX_CHARS,
  MESSAGE_BODY_MAX_BYTES,
  MESSAGE_MAX_CHARS,
} from "../limits.ts";
import { messageRequestSchema } from "./message-schema.ts";
import { messageResponseSchema } from "./response-schema.ts";

/** Example `details` of 400s, as the validation really words them. */
const INVALID_REQUEST_EXAMPLE = "message: must not be empty";

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
        reply:
          "Hi Ada, from “Refund policy and how to request a refund”:\n\n1. Open Settings → Billing → Invoices.\n2. Find the payment and choose Request a refund from the ⋯ menu.\n3. Tell us briefly why you are asking; it helps us improve.",
        tokenUsage: 412,
        toolCalls: [{ name: "search_knowledge_base", args: { query: "How do I get a refund?" } }],
        richContent: [
          {
            type: "articles",
            articles: [
              { id: "art-refunds", title: "Refund policy and how to request a refund", url: helpArticleUrl(appUrl, "demo", "refunds") },
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

/** The streaming form's body: server-sent events (what event-stream.ts writes). */
const EVENT_STREAM_EXAMPLE = [
  "event: message.delta",
  'data: {"delta":"You can request a refund"}',
  "",
  "event: message.delta",
  'data: {"delta":" within 30 days of a charge."}',
  "",
  "event: message",
  `data: {"conversationId":"${EXAMPLE_CONVERSATION_ID}","reply":"You can request a refund within 30 days of a charge.","tokenUsage":412,"toolCalls":[{"name":"search_knowledge_base","args":{"query":"How do I get a refund?"}}],"richContent":[],"handoffRequested":false,"status":"active"}`,
  "",
  "",
].join("\n");

const eventStreamSchema = z.string().meta({
  description: [
    "Server-sent events, each as soon as it is produced:",
    '`message.delta` (data `{"delta": "..."}`): the next piece of the reply, as the agent writes it (LLM agents; an agent that answers at once sends none). The pieces are a preview;',
    "`message` (data: the JSON form's 200 body, the reply as stored): last, on success;",
    '`error` (data: the error body `{"error", "details"?}`): last, when the turn fails after the stream began (nothing is stored; retry with the same Idempotency-Key).',
  ].join(" "),
  examples: [EVENT_STREAM_EXAMPLE],
});

export function sendMessageOperation(appUrl: string): ZodOpenApiOperationObject {
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
      "**Streaming.** Send `Accept: text/event-stream` to receive the reply as server-sent events while the agent writes it (see the `text/event-stream` form of the 200 response). Everything else is as in the JSON form, which stays the default: the same checks, rate limit, quotas, usage, Idempotency-Key and stored messages. Until the first event, errors are answered with their status and JSON error body as listed here; once the stream has begun (200), a failure ends it with an `error` event carrying the same error body.",
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
        content: {
          "application/json": { schema: messageResponseSchema, examples: messageResponseExamples(appUrl) },
          "text/event-stream": { schema: eventStreamSchema },
        },
      },
      "400": errorResponse(["INVALID_REQUEST"], afterLimiter, {
        description: `Body or header validation failed: message 1 to ${MESSAGE_MAX_CHARS} characters and not blank, at most ${CLIENT_VARIABLES_MAX_KEYS} clientVariables of at most ${CLIENT_VARIABLE_VALUE_MAX_CHARS} characters, Content-Type application/json, Idempotency-Key 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters.`,
        detailsExample: INVALID_REQUEST_EXAMPLE,
      }),
      "401": errorResponse(
        [AGENTS_ERRORS.MISSING_BEARER_TOKEN, AGENTS_ERRORS.KEY_NOT_CONFIGURED, AGENTS_ERRORS.INVALID_BEARER_TOKEN],
        { wwwAuthenticate: true },
        {
          description: "Do not retry unchanged.",
        },
      ),
      "402": errorResponse(
        [USAGE_ERRORS.CONVERSATION_QUOTA_EXHAUSTED, USAGE_ERRORS.TOKEN_QUOTA_EXHAUSTED, USAGE_ERRORS.USAGE_LIMIT_REACHED],
        afterLimiter,
        {
          description: "Alert the operator: the agent's monthly limits (set in its settings) are reached; retrying does not help.",
        },
      ),
      "403": errorResponse([AGENTS_ERRORS.HTTP_API_DISABLED], {}),
      "404": errorResponse([PEOPLE_ERRORS.AGENT_NOT_FOUND, CONVERSATIONS_ERRORS.CONVERSATION_NOT_FOUND], { rateLimit: "optional" }),
      "405": methodNotAllowedResponse(["POST"]),
      "409": errorResponse([CONVERSATIONS_ERRORS.IDEMPOTENCY_CONFLICT], afterLimiter),
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

/** The agent's HTTP API key: what protects sendMessage. */
export const bearerAuthScheme: ZodOpenApiSecuritySchemeObject = {
  type: "http",
  scheme: "bearer",
  bearerFormat: `${AGENT_KEY_PREFIX}...`,
  description:
    "The agent's HTTP API key. One key per agent; shown once at generation; generating again replaces it at once. Keep it in your backend, never in a browser.",
};
