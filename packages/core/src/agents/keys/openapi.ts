// The OpenAPI document's Keys family: generating, rotating and revoking an agent's HTTP API key
// (control-panel session), and the session cookie's security scheme.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject, ZodOpenApiSecuritySchemeObject } from "zod-openapi";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { agentIdParam, errorResponse, type HeaderSet, methodNotAllowedResponse, responseHeaders } from "../../platform/openapi-shared.ts";
import { AGENT_KEY_PREFIX, AGENT_KEY_RANDOM_BYTES } from "./secrets.ts";

/** next-auth v4's session cookie; the `__Secure-` name when the app is served over https. */
const SESSION_COOKIE = "next-auth.session-token";
const KEYS_CACHE_CONTROL = "no-store";

const keysCacheControlHeader = z.literal(KEYS_CACHE_CONTROL).meta({ description: "Nothing about keys is cached." });

/** The body of a generated key; `satisfies` in test/openapi.test.ts ties it to agents/keys/operations.ts. */
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
  "404": errorResponse([PEOPLE_ERRORS.AGENT_NOT_FOUND], keyHeaders),
  "405": methodNotAllowedResponse(["POST", "DELETE"]),
  "500": errorResponse(["INTERNAL"], keyHeaders),
} satisfies Record<string, ZodOpenApiResponseObject>;

const keyPathParams = z.object({ agent_id: agentIdParam });

export const createKeyOperation: ZodOpenApiOperationObject = {
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

export const revokeKeyOperation: ZodOpenApiOperationObject = {
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

/** The control panel's session cookie: what protects the key routes. */
export function sessionCookieScheme(secure: boolean): ZodOpenApiSecuritySchemeObject {
  return {
    type: "apiKey",
    in: "cookie",
    name: secure ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE,
    description:
      "The control panel's next-auth session cookie (sign in at /signin). Cross-site requests are refused (403) even with a valid cookie.",
  };
}
