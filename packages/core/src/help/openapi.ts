// The OpenAPI document's Help centre family: the three public, read-only help routes.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import { HELP_CLOSEST_MATCHES, HELP_QUERY_MAX_CHARS } from "../knowledge/limits.ts";
import { HELP_REQUESTS_PER_MINUTE } from "../platform/limits.ts";
import { agentIdParam, errorResponse, type HeaderSet, methodNotAllowedResponse, responseHeaders } from "../platform/openapi-shared.ts";
import { articleListQuerySchema } from "./articles.ts";
import { HELP_ARTICLES_PER_LIST, HELP_CACHE_CONTROL, HELP_CACHE_SECONDS } from "./limits.ts";
import { helpArticleResponseSchema, helpArticlesResponseSchema, helpCollectionsResponseSchema } from "./schemas.ts";

const helpCacheControlHeader = z.literal(HELP_CACHE_CONTROL).meta({
  description: `Help responses (404s included) may be cached privately for ${HELP_CACHE_SECONDS} seconds; an unpublished article disappears within that time.`,
});
const helpNoStoreHeader = z.literal("no-store").meta({
  description: "A refusal or a failure is not cached: the retry reaches the server.",
});

const INTERNAL_HELP = errorResponse(["INTERNAL"], { cacheControl: helpNoStoreHeader, rateLimit: "optional" });

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

export const helpCollectionsOperation: ZodOpenApiOperationObject = {
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

export const helpArticlesOperation: ZodOpenApiOperationObject = {
  operationId: "listHelpArticles",
  tags: ["Help centre"],
  summary: "List or search help articles",
  description: `At most ${HELP_ARTICLES_PER_LIST} published articles, optionally of one collection, most recently updated first. With \`q\` (words or a question), the articles the help centre's search finds, by the knowledge agent's own analysis (word forms, common typos, synonyms): by default those holding every word of the query (or the query as part of a word), most recently updated first, or when none does, the ${HELP_CLOSEST_MATCHES} closest matches (any word); with \`sort=relevance\` (Parley's extension, for search boxes) every match, best first, as the help centre's search page lists them. No authentication.`,
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
      description: `\`q\` is longer than ${HELP_QUERY_MAX_CHARS} characters, or \`sort\` is neither \`recent\` nor \`relevance\`.`,
      detailsExample: `q: must be at most ${HELP_QUERY_MAX_CHARS} characters`,
    }),
    ...helpErrors,
  },
};

export const helpArticleOperation: ZodOpenApiOperationObject = {
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
