// The OpenAPI 3.1 document of Parley's public HTTP routes (GET /api/openapi.json, the /docs page,
// the typed client's checks), with the webhooks Parley sends (the `webhooks` section, from the payload
// schemas of webhooks/schemas.ts). Built with zod-openapi from the very zod schemas the handlers parse
// with (conversations/turn/message-schema.ts, help/articles.ts) and the schemas of what they return
// (conversations/turn/response-schema.ts, help/schemas.ts); every status and `error` text comes from
// the error definitions (platform/errors.ts, the modules' errors.ts) and every number from the modules' limits.ts, so
// the document cannot drift from the code. The conformance tests validate real responses of every route against it.
//
// The parts live by route family under openapi/ (shared, messages, help, keys, webhooks); this
// module assembles them.
import { createDocument } from "zod-openapi";
import { createKeyOperation, revokeKeyOperation, sessionCookieScheme } from "../agents/keys/openapi.ts";
import { bearerAuthScheme, sendMessageOperation } from "../conversations/turn/openapi.ts";
import { helpArticleOperation, helpArticlesOperation, helpCollectionsOperation } from "../help/openapi.ts";
import { HELP_REQUESTS_PER_MINUTE, MESSAGES_PER_MINUTE } from "../platform/limits.ts";
import { errorBodySchema } from "../platform/openapi-shared.ts";
import { webhookEntries, webhookSignatureScheme } from "../webhooks/openapi.ts";

export { issuedKeyResponseSchema } from "../agents/keys/openapi.ts";
export { errorBodySchema } from "../platform/openapi-shared.ts";

/**
 * The version of the public API this document describes (semver). Within major version 1 only
 * additive changes are made (minor: new optional fields, operations, error texts; patch: wording);
 * see docs/integrators/versioning.md.
 */
export const API_VERSION = "1.0.0";

/** The generated document (plain JSON data). */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/**
 * The license the document declares (an SPDX id). The repository has no LICENSE file yet: whoever
 * chooses the project's license changes it here too.
 */
const API_LICENSE = { name: "MIT", identifier: "MIT" };

/** The server variable that holds the deployment's base URL. */
const APP_URL_VARIABLE = "appUrl";

/** The base URL the document names: its server URL with each variable at its default (the APP_URL it was built for). */
export function documentServerUrl(document: OpenApiDocument): string {
  const server = document.servers?.[0];
  if (!server) return "";
  return server.url.replace(/\{([^}]+)\}/g, (_match, name: string) => String(server.variables?.[name]?.default ?? ""));
}

// ---------------------------------------------------------------------------------------------
// The document

const DESCRIPTION = `Parley hosts conversational agents. Integrators talk to an agent from their backend with the
agent's HTTP API key (\`Authorization: Bearer pk_...\`, server to server only); the help centre is public
and read-only; the key routes belong to the control panel and need its session.

**Errors** always have the body \`{"error": "<short message>", "details": "<optional>"}\`; each response
below lists its exact \`error\` texts, and a \`Link\` header points to the error's documentation
(\`Link: </docs#errors-rate-limited>; rel="help"\`). Every response carries \`X-Request-Id\`.

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
      license: API_LICENSE,
    },
    // A variable rather than the URL itself: tools offer to point the document at another
    // deployment, and its default is this deployment's APP_URL.
    servers: [
      {
        url: `{${APP_URL_VARIABLE}}`,
        description: "This Parley deployment (APP_URL)",
        variables: {
          [APP_URL_VARIABLE]: {
            default: appUrl,
            description: "The deployment's public base URL (its APP_URL, no trailing slash); another deployment's to call that one.",
          },
        },
      },
    ],
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
        bearerAuth: bearerAuthScheme,
        sessionCookie: sessionCookieScheme(secure),
        webhookSignature: webhookSignatureScheme,
      },
    },
  });
  cache.set(appUrl, document);
  return document;
}
