// The help routes' JSON bodies (spec 2.3 to 2.5, 4.2 to 4.4) as zod schemas, for the OpenAPI
// document (../openapi/document.ts). The reads return plain objects typed by ./collections.ts and
// ./articles.ts; test/openapi.test.ts asserts that these schemas infer exactly those types (with
// `updatedAt` as the ISO 8601 string the route sends).
import { z } from "zod";
import { HELP_ARTICLES_PER_LIST } from "./limits.ts";

export const helpCollectionSchema = z
  .object({
    id: z.string().meta({ description: "The source id.", examples: ["src-billing"] }),
    name: z.string().meta({ examples: ["Billing"] }),
    count: z.int().min(1).meta({ description: "Published articles in the collection." }),
  })
  .meta({ id: "HelpCollection" });

export const articleSummarySchema = z
  .object({
    id: z.string().meta({ examples: ["art-refunds"] }),
    sourceId: z.string().meta({ examples: ["src-billing"] }),
    title: z.string(),
    excerpt: z.string().meta({ description: "Plain text, around the match when searching." }),
  })
  .meta({ id: "HelpArticleSummary" });

export const helpArticleSchema = z
  .object({
    id: z.string().meta({ examples: ["art-refunds"] }),
    sourceId: z.string().meta({ examples: ["src-billing"] }),
    sourceName: z.string().meta({ examples: ["Billing"] }),
    title: z.string(),
    content: z.string().meta({ description: "The article in Markdown." }),
    updatedAt: z.iso.datetime().meta({ description: "Last change, ISO 8601 in UTC.", examples: ["2026-09-29T13:45:00.000Z"] }),
  })
  .meta({ id: "HelpArticle" });

export const helpCollectionsResponseSchema = z
  .object({ data: z.object({ collections: z.array(helpCollectionSchema) }) })
  .meta({ id: "HelpCollectionsResponse" });

export const helpArticlesResponseSchema = z
  .object({
    data: z.object({
      articles: z
        .array(articleSummarySchema)
        .max(HELP_ARTICLES_PER_LIST)
        .meta({
          description: `At most ${HELP_ARTICLES_PER_LIST}, most recently updated first (best match first with \`sort=relevance\`).`,
        }),
    }),
  })
  .meta({ id: "HelpArticlesResponse" });

export const helpArticleResponseSchema = z.object({ data: helpArticleSchema }).meta({ id: "HelpArticleResponse" });
