// The OpenAPI document: valid OpenAPI 3.1 by a third-party validator, versioned, served
// for APP_URL, built from the handlers' own schemas (types asserted equal, request rules
// answered alike by the document and by zod), every error text and limit in it, and every example
// valid against its own schema. The webhooks section: every event type of the code, and payloads
// really recorded by the outbox valid against it.

import { messagingAgent, type TestContext } from "@parley/testing/context";
import { createAgentWithKey, createMessagingContext } from "@parley/testing/messaging";
import { createDocumentValidator, pointer } from "@parley/testing/openapi";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { IssuedAgentKey } from "../src/agents/keys/operations.ts";
import { changeConversation, replyToConversation } from "../src/conversations/inbox/inbox.ts";
import {
  CLIENT_VARIABLE_VALUE_MAX_CHARS,
  CLIENT_VARIABLES_MAX_KEYS,
  IDEMPOTENCY_KEY_MAX_CHARS,
  MESSAGE_MAX_CHARS,
  VISITOR_NAME_MAX_CHARS,
} from "../src/conversations/limits.ts";
import { rateConversation } from "../src/conversations/rating.ts";
import { type MessageRequest, messageRequestSchema } from "../src/conversations/turn/message-schema.ts";
import type { messageResponseSchema } from "../src/conversations/turn/response-schema.ts";
import { type MessageResponse, runTurn } from "../src/conversations/turn/turn.ts";
import type { RichContentItem, ToolCall } from "../src/engine/types.ts";
import { ERRORS, type ErrorCode } from "../src/error-table.ts";
import type { ArticleSummary, HelpArticle } from "../src/help/articles.ts";
import type { HelpCollection } from "../src/help/collections.ts";
import { HELP_CACHE_CONTROL } from "../src/help/limits.ts";
import type { articleSummarySchema, helpArticleSchema, helpCollectionSchema } from "../src/help/schemas.ts";
import { setArticlePublished } from "../src/knowledge/articles/articles.ts";
import { HELP_QUERY_MAX_CHARS } from "../src/knowledge/limits.ts";
import { API_VERSION, buildOpenApiDocument, documentServerUrl, type issuedKeyResponseSchema } from "../src/openapi/document.ts";
import { errorDocsLink } from "../src/platform/error-docs.ts";
import type { richContentItemSchema, toolCallSchema } from "../src/platform/reply-content.ts";
import { createEndpoint, sendTestEvent } from "../src/webhooks/endpoints.ts";
import { WEBHOOK_FAILING_DISABLE_MS, WEBHOOK_RETRY_DELAYS_MS } from "../src/webhooks/limits.ts";
import { WEBHOOK_HEADERS } from "../src/webhooks/schemas.ts";
import { webhookHeaders } from "../src/webhooks/signing.ts";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from "../src/webhooks/types.ts";

const APP_URL = "https://parley.example.com";
const document = buildOpenApiDocument({ appUrl: APP_URL });
const validator = createDocumentValidator(document);

const MESSAGES = "/api/agent/{agentId}/messages";
const HELP = "/api/agent/{agentId}/help";
const ARTICLES = "/api/agent/{agentId}/help/articles";
const ARTICLE = "/api/agent/{agentId}/help/articles/{itemId}";
const KEY = "/api/agents/{agent_id}/http-api-key";

type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Record<string, unknown> }>;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    {
      headers?: Record<string, { required?: boolean; schema: Record<string, unknown> }>;
      content?: Record<string, { schema: Record<string, unknown>; examples?: Record<string, { value: unknown }> }>;
    }
  >;
};

function operation(path: string, method: string): Operation {
  const found = (document.paths?.[path] as Record<string, Operation> | undefined)?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

function operations(): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, operation: op })),
  );
}

/** An error response's body schema: the Error component narrowed by a second schema. */
function errorSchema(path: string, method: string, status: number) {
  const schema = operation(path, method).responses[String(status)]?.content?.["application/json"]?.schema as {
    allOf: [{ $ref: string }, { properties: { error: { enum?: string[]; const?: string } } }];
  };
  return schema;
}

/** The `error` texts a response allows (its enum or const). */
function errorTexts(path: string, method: string, status: number): string[] {
  const error = errorSchema(path, method, status).allOf[1].properties.error;
  return error.enum ?? [error.const!];
}

/** Every error response of the document: [path, method, status]. */
function errorResponses(): Array<[string, string, number]> {
  return operations().flatMap(({ path, method, operation: op }) =>
    Object.keys(op.responses)
      .filter((status) => Number(status) >= 400)
      .map((status): [string, string, number] => [path, method, Number(status)]),
  );
}

const texts = (...codes: ErrorCode[]) => codes.map((code) => ERRORS[code].message);

describe("the document", () => {
  it("is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator", async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("carries the API version, a license, and this deployment's APP_URL as its server variable's default", () => {
    expect(document.info.version).toBe(API_VERSION);
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(document.info.license).toEqual({ name: "MIT", identifier: "MIT" });
    expect(document.servers).toEqual([
      { url: "{appUrl}", description: expect.any(String), variables: { appUrl: { default: APP_URL, description: expect.any(String) } } },
    ]);
    expect(documentServerUrl(document)).toBe(APP_URL);
    expect(documentServerUrl(buildOpenApiDocument({ appUrl: "http://localhost:3000/" }))).toBe("http://localhost:3000");
  });

  it("describes the public routes and nothing else", () => {
    expect(operations().map(({ path, method, operation: op }) => [method, path, op.operationId])).toEqual([
      ["post", MESSAGES, "sendMessage"],
      ["get", HELP, "listHelpCollections"],
      ["get", ARTICLES, "listHelpArticles"],
      ["get", ARTICLE, "getHelpArticle"],
      ["post", KEY, "createHttpApiKey"],
      ["delete", KEY, "revokeHttpApiKey"],
    ]);
  });

  it("has a bearer scheme for messages, none for help, the session cookie for keys", () => {
    const schemes = document.components?.securitySchemes as unknown as Record<string, Record<string, unknown>>;
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    // https: next-auth names its cookie with the __Secure- prefix.
    expect(schemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "__Secure-next-auth.session-token" });
    const local = buildOpenApiDocument({ appUrl: "http://localhost:3000" }).components?.securitySchemes as unknown as Record<
      string,
      { name?: string }
    >;
    expect(local.sessionCookie?.name).toBe("next-auth.session-token");
    expect(operation(MESSAGES, "post").security).toEqual([{ bearerAuth: [] }]);
    for (const path of [HELP, ARTICLES, ARTICLE]) expect(operation(path, "get").security).toEqual([]);
    for (const method of ["post", "delete"]) expect(operation(KEY, method).security).toEqual([{ sessionCookie: [] }]);
  });

  it("declares the Standard Webhooks signature as what protects every webhook", () => {
    const schemes = document.components?.securitySchemes as unknown as Record<string, Record<string, unknown>>;
    expect(schemes.webhookSignature).toMatchObject({ type: "apiKey", in: "header", name: "webhook-signature" });
    expect(schemes.webhookSignature?.description).toContain("Standard Webhooks");
    const webhooks = Object.values(document.webhooks ?? {}) as Array<{ post: Operation }>;
    expect(webhooks).toHaveLength(WEBHOOK_EVENT_TYPES.length + 1);
    for (const item of webhooks) expect(item.post.security).toEqual([{ webhookSignature: [] }]);
  });
});

describe("errors: every status with its exact texts from errors.ts", () => {
  it("send message", () => {
    const statuses = Object.keys(operation(MESSAGES, "post").responses);
    expect(statuses).toEqual(["200", "400", "401", "402", "403", "404", "405", "409", "429", "500"]);
    expect(errorTexts(MESSAGES, "post", 400)).toEqual(texts("INVALID_REQUEST"));
    expect(errorTexts(MESSAGES, "post", 401)).toEqual(texts("MISSING_BEARER_TOKEN", "KEY_NOT_CONFIGURED", "INVALID_BEARER_TOKEN"));
    expect(errorTexts(MESSAGES, "post", 402)).toEqual(
      texts("CONVERSATION_QUOTA_EXHAUSTED", "TOKEN_QUOTA_EXHAUSTED", "USAGE_LIMIT_REACHED"),
    );
    expect(errorTexts(MESSAGES, "post", 403)).toEqual(texts("HTTP_API_DISABLED"));
    expect(errorTexts(MESSAGES, "post", 404)).toEqual(texts("AGENT_NOT_FOUND", "CONVERSATION_NOT_FOUND"));
    expect(errorTexts(MESSAGES, "post", 409)).toEqual(texts("IDEMPOTENCY_CONFLICT"));
    expect(errorTexts(MESSAGES, "post", 429)).toEqual(texts("RATE_LIMITED"));
    expect(errorTexts(MESSAGES, "post", 500)).toEqual(texts("INTERNAL"));
    expect(errorTexts(MESSAGES, "post", 405)).toEqual(["Method not allowed"]);
    // The spec's own texts (section 7), verbatim.
    expect(errorTexts(MESSAGES, "post", 401)).toEqual(
      expect.arrayContaining(["Missing bearer token", "Invalid bearer token", "HTTP API key not configured"]),
    );
    expect(errorTexts(MESSAGES, "post", 403)).toEqual(["HTTP API disabled for this agent"]);
    expect(errorTexts(MESSAGES, "post", 429)).toEqual(["Rate limit exceeded"]);
  });

  it("help routes: 404 Not found, 400 for the search, 429", () => {
    for (const path of [HELP, ARTICLES, ARTICLE]) {
      expect(errorTexts(path, "get", 404)).toEqual(["Not found"]);
      expect(errorTexts(path, "get", 429)).toEqual(["Rate limit exceeded"]);
      expect(errorTexts(path, "get", 500)).toEqual(["Internal error"]);
      expect(errorTexts(path, "get", 405)).toEqual(["Method not allowed"]);
    }
    expect(Object.keys(operation(ARTICLES, "get").responses)).toEqual(["200", "400", "404", "405", "429", "500"]);
    expect(errorTexts(ARTICLES, "get", 400)).toEqual(["Invalid request"]);
    expect(Object.keys(operation(HELP, "get").responses)).toEqual(["200", "404", "405", "429", "500"]);
  });

  it("key routes", () => {
    expect(Object.keys(operation(KEY, "post").responses)).toEqual(["201", "401", "403", "404", "405", "500"]);
    expect(Object.keys(operation(KEY, "delete").responses)).toEqual(["204", "401", "403", "404", "405", "500"]);
    expect(errorTexts(KEY, "post", 401)).toEqual(["Unauthorized"]);
    expect(errorTexts(KEY, "delete", 403)).toEqual(["Forbidden"]);
    expect(errorTexts(KEY, "delete", 404)).toEqual(["Agent not found"]);
    expect(errorTexts(KEY, "post", 405)).toEqual(["Method not allowed"]);
  });

  it("the error body of spec 2.7 is a component, and every error response is it", () => {
    expect(document.components?.schemas?.Error).toMatchObject({ required: ["error"], properties: { error: { type: "string" } } });
    expect(errorResponses().length).toBeGreaterThan(20);
    for (const [path, method, status] of errorResponses()) {
      expect(errorSchema(path, method, status).allOf[0], `${method} ${path} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
    }
  });

  it("every error response declares the Link header to the documentation of each of its errors", () => {
    const codeOf = Object.fromEntries(Object.entries(ERRORS).map(([code, entry]) => [entry.message, code as ErrorCode]));
    for (const [path, method, status] of errorResponses()) {
      const link = operation(path, method).responses[String(status)]?.headers?.Link;
      const links = errorTexts(path, method, status).map((text) => errorDocsLink(codeOf[text]!));
      expect(link?.required, `${method} ${path} ${status}`).toBe(true);
      expect(link?.schema, `${method} ${path} ${status}`).toMatchObject(links.length === 1 ? { const: links[0] } : { enum: links });
    }
    expect(errorDocsLink("RATE_LIMITED")).toBe('</docs#errors-rate-limited>; rel="help"');
  });
});

describe("headers", () => {
  const headers = (path: string, method: string, status: number) => operation(path, method).responses[String(status)]?.headers ?? {};
  const required = (path: string, method: string, status: number) =>
    Object.entries(headers(path, method, status))
      .filter(([, header]) => header.required)
      .map(([name]) => name);

  it("X-Request-Id on every response", () => {
    for (const { path, method, operation: op } of operations()) {
      for (const status of Object.keys(op.responses)) expect(required(path, method, Number(status))).toContain("X-Request-Id");
    }
  });

  it("send message: RateLimit headers after the limiter, Retry-After on 429, WWW-Authenticate on 401", () => {
    expect(required(MESSAGES, "post", 200)).toEqual(["RateLimit-Policy", "RateLimit", "X-Request-Id"]);
    expect(Object.keys(headers(MESSAGES, "post", 200))).toContain("Idempotent-Replayed");
    expect(required(MESSAGES, "post", 401)).toEqual(["WWW-Authenticate", "Link", "X-Request-Id"]);
    expect(required(MESSAGES, "post", 429)).toEqual(["Retry-After", "Link", "X-Request-Id"]);
    expect(Object.keys(headers(MESSAGES, "post", 429))).toEqual(["RateLimit-Policy", "RateLimit", "Retry-After", "Link", "X-Request-Id"]);
    expect(headers(MESSAGES, "post", 429)["Retry-After"]?.schema).toMatchObject({ type: "integer", minimum: 1 });
  });

  it("help: Cache-Control on every response (no-store on 429 and 500), with the RateLimit headers", () => {
    for (const path of [HELP, ARTICLES, ARTICLE]) {
      for (const status of [200, 404, 429]) {
        expect(required(path, "get", status)).toEqual(
          expect.arrayContaining(["Cache-Control", "RateLimit-Policy", "RateLimit", "X-Request-Id"]),
        );
        const cacheControl = status === 429 ? "no-store" : HELP_CACHE_CONTROL;
        expect(headers(path, "get", status)["Cache-Control"]?.schema).toMatchObject({ const: cacheControl });
      }
      expect(headers(path, "get", 500)["Cache-Control"]?.schema).toMatchObject({ const: "no-store" });
      expect(required(path, "get", 429)).toContain("Retry-After");
    }
  });

  it("keys: Cache-Control no-store", () => {
    for (const [method, status] of [
      ["post", 201],
      ["delete", 204],
      ["post", 401],
      ["delete", 404],
    ] as const) {
      expect(headers(KEY, method, status)["Cache-Control"]).toMatchObject({ required: true, schema: { const: "no-store" } });
    }
  });

  it("the Idempotency-Key request header with its limit", () => {
    const parameter = operation(MESSAGES, "post").parameters?.find((p) => p.name === "Idempotency-Key");
    expect(parameter).toMatchObject({ in: "header", schema: { minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_CHARS } });
    expect(parameter?.required).not.toBe(true);
  });
});

describe("limits from limits.ts", () => {
  const body = operation(MESSAGES, "post").requestBody?.content["application/json"]?.schema as {
    required: string[];
    additionalProperties: unknown;
    properties: Record<string, unknown>;
  };

  it("send-message body", () => {
    expect(body.required).toEqual(["message"]);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.message).toMatchObject({ type: "string", minLength: 1, maxLength: MESSAGE_MAX_CHARS });
    expect(body.properties.clientVariables).toMatchObject({
      maxProperties: CLIENT_VARIABLES_MAX_KEYS,
      additionalProperties: { type: "string", maxLength: CLIENT_VARIABLE_VALUE_MAX_CHARS },
    });
    expect(body.properties.visitor).toMatchObject({
      additionalProperties: false,
      properties: { email: { format: "email" }, name: { maxLength: VISITOR_NAME_MAX_CHARS }, phone: { pattern: expect.any(String) } },
    });
  });

  it("help search `q`", () => {
    const q = operation(ARTICLES, "get").parameters?.find((p) => p.name === "q");
    expect(q).toMatchObject({ in: "query", schema: { type: "string", maxLength: HELP_QUERY_MAX_CHARS } });
    expect(q?.required).not.toBe(true);
  });

  it("help search `sort`: recent (the default) or relevance", () => {
    const sort = operation(ARTICLES, "get").parameters?.find((p) => p.name === "sort");
    expect(sort).toMatchObject({ in: "query", schema: { type: "string", enum: ["recent", "relevance"], default: "recent" } });
    expect(sort?.required).not.toBe(true);
    expect(JSON.stringify(sort)).toMatch(/best match first/);
  });
});

describe("the document's request schema decides like the handler's zod schema", () => {
  const requestPointer = pointer("paths", MESSAGES, "post", "requestBody", "content", "application/json", "schema");
  const cases: unknown[] = [
    { message: "hi" },
    { message: "x".repeat(MESSAGE_MAX_CHARS) },
    { message: "😀".repeat(MESSAGE_MAX_CHARS) },
    { message: "x".repeat(MESSAGE_MAX_CHARS + 1) },
    { message: "" },
    { message: "   " },
    { message: 7 },
    {},
    [],
    "hi",
    { message: "hi", extra: true },
    { message: "hi", conversationId: "" },
    { message: "hi", conversationId: "c1" },
    { message: "hi", visitor: { name: "Ada", email: "ada@example.com", phone: "+14155550100" } },
    { message: "hi", visitor: { phone: "0123" } },
    { message: "hi", visitor: { email: "not-an-email" } },
    { message: "hi", visitor: { name: "x".repeat(VISITOR_NAME_MAX_CHARS + 1) } },
    { message: "hi", visitor: { nickname: "A" } },
    { message: "hi", clientVariables: Object.fromEntries(Array.from({ length: CLIENT_VARIABLES_MAX_KEYS }, (_, i) => [`k${i}`, "v"])) },
    { message: "hi", clientVariables: Object.fromEntries(Array.from({ length: CLIENT_VARIABLES_MAX_KEYS + 1 }, (_, i) => [`k${i}`, "v"])) },
    { message: "hi", clientVariables: { plan: "x".repeat(CLIENT_VARIABLE_VALUE_MAX_CHARS) } },
    { message: "hi", clientVariables: { plan: "x".repeat(CLIENT_VARIABLE_VALUE_MAX_CHARS + 1) } },
    { message: "hi", clientVariables: { plan: 1 } },
  ];
  it.each(cases.map((body, index) => [index, body]))("case %i", (_index, body) => {
    expect(validator.validateAt(requestPointer, body).valid).toBe(messageRequestSchema.safeParse(body).success);
  });
});

describe("examples are valid against their own schemas", () => {
  it("request bodies", () => {
    const examples = operation(MESSAGES, "post").requestBody?.content["application/json"]?.examples ?? {};
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(2);
    for (const example of Object.values(examples)) {
      expect(messageRequestSchema.safeParse(example.value).success).toBe(true);
    }
  });

  it("responses", () => {
    let count = 0;
    for (const { path, method, operation: op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [name, example] of Object.entries(response.content?.["application/json"]?.examples ?? {})) {
          const result = validator.validateBody(path, method, Number(status), example.value);
          expect(result.errors, `${method} ${path} ${status} ${name}`).toEqual([]);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThan(20);
  });
});

describe("the schemas infer exactly the types the code returns", () => {
  it("compile-time checks", () => {
    expectTypeOf<z.output<typeof messageResponseSchema>>().toEqualTypeOf<MessageResponse>();
    expectTypeOf<z.output<typeof toolCallSchema>>().toEqualTypeOf<ToolCall>();
    expectTypeOf<z.output<typeof richContentItemSchema>>().toEqualTypeOf<RichContentItem>();
    expectTypeOf<z.output<typeof helpCollectionSchema>>().toEqualTypeOf<HelpCollection>();
    expectTypeOf<z.output<typeof articleSummarySchema>>().toEqualTypeOf<ArticleSummary>();
    // The route sends updatedAt as an ISO 8601 string.
    type SentArticle = { [K in keyof HelpArticle]: K extends "updatedAt" ? string : HelpArticle[K] };
    expectTypeOf<z.output<typeof helpArticleSchema>>().toEqualTypeOf<SentArticle>();
    expectTypeOf<z.output<typeof issuedKeyResponseSchema>["data"]>().toEqualTypeOf<IssuedAgentKey>();
    expectTypeOf<z.input<typeof messageRequestSchema>>().toEqualTypeOf<MessageRequest>();
  });
});

describe("webhooks", () => {
  type WebhookOperation = Operation & { responses: Record<string, { description: string }> };
  const webhooks = (document.webhooks ?? {}) as Record<string, { post?: WebhookOperation }>;
  const webhook = (type: string) => {
    const found = webhooks[type]?.post;
    if (!found) throw new Error(`no webhook ${type}`);
    return found;
  };
  const bodyPointer = (type: string) => pointer("webhooks", type, "post", "requestBody", "content", "application/json", "schema");

  it("one POST per event type of the code, and the test event", () => {
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].sort());
    for (const type of Object.keys(webhooks)) {
      expect(Object.keys(webhooks[type]!)).toEqual(["post"]);
      expect(webhook(type).requestBody?.content["application/json"]?.schema).toBeDefined();
    }
    expect(new Set(Object.values(webhooks).map((item) => item.post?.operationId)).size).toBe(Object.keys(webhooks).length);
  });

  it("the Standard Webhooks headers, required, with the texts of WEBHOOK_HEADERS", () => {
    for (const type of Object.keys(webhooks)) {
      const parameters = webhook(type).parameters ?? [];
      expect(parameters.map((p) => [p.name, p.in, p.required])).toEqual(Object.keys(WEBHOOK_HEADERS).map((name) => [name, "header", true]));
      for (const parameter of parameters) {
        expect((parameter as { description?: string }).description).toBe(WEBHOOK_HEADERS[parameter.name as keyof typeof WEBHOOK_HEADERS]);
      }
    }
  });

  it("responses: 2xx success within the timeout, 410 disables, the rest retried on the schedule of limits.ts", () => {
    for (const type of Object.keys(webhooks)) {
      const responses = webhook(type).responses;
      expect(Object.keys(responses).sort()).toEqual(["2XX", "410", "default"]);
      expect(responses["2XX"]!.description).toContain("10 s");
      expect(responses["410"]!.description).toContain("disabled");
      expect(responses.default!.description).toContain("5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h");
      expect(responses.default!.description).toContain("3 days");
    }
    // The texts above follow the constants: guard against the schedule changing under them.
    expect(WEBHOOK_RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(WEBHOOK_FAILING_DISABLE_MS).toBe(3 * 24 * 3_600_000);
  });

  describe("payloads really recorded by the outbox validate against their documented schema (ajv)", () => {
    const WORKSPACE = "ws-demo";
    const ADMIN = { userId: "user-admin", workspaceId: WORKSPACE, role: "owner" } as const;
    let ctx: TestContext;

    beforeAll(async () => {
      ctx = await createMessagingContext();
    });

    afterAll(async () => {
      await ctx?.close();
    });

    it("every event type, and the test event with its signed headers", async () => {
      const agent = await createAgentWithKey(ctx);
      const messaging = messagingAgent({ id: agent.id, workspaceId: "ws-demo" });
      const now = new Date();
      const { endpoint, secret } = await createEndpoint(
        ctx.db,
        ADMIN,
        {
          url: "https://hooks.example.com/parley",
          description: "",
          allAgents: true,
          agentIds: [],
          eventTypes: [...WEBHOOK_EVENT_TYPES],
          enabled: true,
        },
        { policy: { allowLocal: false, resolve: async () => ["93.184.216.34"] }, now },
      );

      // A widget turn with articles, one with buttons, one asking for a person; the panel's actions.
      const first = await runTurn(
        ctx,
        messaging,
        { message: "How do I reset my password?", visitor: { name: "Ada", email: "ada@example.com" }, clientVariables: { plan: "pro" } },
        { channel: "widget" },
      );
      await runTurn(ctx, messaging, { message: "Do you ship to Mars?", conversationId: first.conversationId }, { channel: "widget" });
      await runTurn(ctx, messaging, { message: "Can I talk to a human?", conversationId: first.conversationId }, { channel: "widget" });
      const admin = { workspaceId: WORKSPACE, userId: "user-admin", role: "owner" as const };
      await replyToConversation(ctx.db, admin, { id: first.conversationId, text: "Hi Ada, a person here." });
      await changeConversation(ctx.db, admin, first.conversationId, { kind: "hand_back" });
      await changeConversation(ctx.db, admin, first.conversationId, { kind: "assign", assigneeId: null });
      await changeConversation(ctx.db, admin, first.conversationId, { kind: "resolve" });
      await rateConversation(
        ctx,
        { agentId: agent.id, sessionConversationId: first.conversationId, clientIp: "203.0.113.9" },
        { conversationId: first.conversationId, rating: "good", comment: "Quick and kind" },
      );
      const article = await ctx.db.prisma.article.findFirstOrThrow({ where: { sourceId: "src-start", published: true } });
      await setArticlePublished(ctx.db, ADMIN, { id: article.id, published: false }, now);
      await setArticlePublished(ctx.db, ADMIN, { id: article.id, published: true }, now);
      await sendTestEvent(ctx.db, WORKSPACE, endpoint.id, now);

      const rows = await ctx.db.prisma.webhookEvent.findMany({ orderBy: { id: "asc" } });
      expect(new Set(rows.map((row) => row.type))).toEqual(new Set([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]));
      for (const row of rows) {
        const payload = JSON.parse(row.payload) as { type: string };
        expect(payload.type).toBe(row.type);
        expect(validator.validateAt(bodyPointer(row.type), payload).errors, row.payload).toEqual([]);
        // A payload of another type is not valid against this one's schema.
        const other = row.type === WEBHOOK_TEST_EVENT_TYPE ? "conversation.created" : WEBHOOK_TEST_EVENT_TYPE;
        expect(validator.validateAt(bodyPointer(other), payload).valid).toBe(false);

        const headers = webhookHeaders([secret, secret], row.id, new Date(), row.payload);
        for (const name of Object.keys(WEBHOOK_HEADERS) as Array<keyof typeof WEBHOOK_HEADERS>) {
          const index = webhook(row.type).parameters!.findIndex((p) => p.name === name);
          const schemaPointer = pointer("webhooks", row.type, "post", "parameters", index, "schema");
          expect(validator.validateAt(schemaPointer, headers[name]).errors, name).toEqual([]);
        }
      }
      // The agent's replies carried tool calls and both kinds of rich content, validated above.
      type Turn = { data: { messages: Array<{ role: string; richContent?: Array<{ type: string }> }> } };
      const replies = rows
        .filter((row) => row.type === "conversation.message")
        .flatMap((row) => (JSON.parse(row.payload) as Turn).data.messages)
        .filter((message) => message.role === "agent");
      expect(new Set(replies.flatMap((message) => message.richContent ?? []).map((item) => item.type))).toEqual(
        new Set(["articles", "buttons"]),
      );
    });

    it("a payload off its schema is refused", () => {
      const bad = { type: "conversation.escalated", timestamp: "2026-11-20T12:00:00.000Z", data: { conversation: {}, reason: "x" } };
      expect(validator.validateAt(bodyPointer("conversation.escalated"), bad).valid).toBe(false);
    });
  });
});
