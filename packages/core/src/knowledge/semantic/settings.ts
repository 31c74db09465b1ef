// The embeddings endpoint's settings. Core reads no environment: the app parses these variables
// (apps/web/src/env.ts includes the schema) and hands the resulting config to core.
import { optionalUrl } from "@parley/db";
import { z } from "zod";

/** Where passage vectors are searched (passage-search.ts decides what auto means). */
export const VECTOR_SEARCH_SETTINGS = ["auto", "pgvector", "in-process"] as const;
export type VectorSearchSetting = (typeof VECTOR_SEARCH_SETTINGS)[number];

export const embeddingsSettingsSchema = z.object({
  EMBEDDINGS_BASE_URL: optionalUrl,
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().optional(),
  /** Shorter vectors from models that can give them (the `dimensions` request field): less memory, faster search. */
  EMBEDDINGS_DIMENSIONS: z.preprocess((value) => (value === "" ? undefined : value), z.coerce.number().int().min(8).max(8_192).optional()),
  /** Where passage vectors are searched (passage-search.ts): auto, pgvector or in-process. */
  EMBEDDINGS_VECTOR_SEARCH: z.preprocess((value) => (value === "" ? undefined : value), z.enum(VECTOR_SEARCH_SETTINGS).optional()),
});

export type EmbeddingsSettings = z.infer<typeof embeddingsSettingsSchema>;

export interface EmbeddingsConfig {
  /** An OpenAI-compatible API base, e.g. https://api.openai.com/v1 (POST {baseUrl}/embeddings). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Asked of the endpoint when set; otherwise the model's own length. */
  dimensions?: number;
  /** Where the vectors are searched; auto when absent. */
  vectorSearch?: VectorSearchSetting;
}

/** The endpoint configuration, or undefined (semantic retrieval off) when the URL or the model is unset. */
export function embeddingsConfigFrom(settings: EmbeddingsSettings): EmbeddingsConfig | undefined {
  if (!settings.EMBEDDINGS_BASE_URL || !settings.EMBEDDINGS_MODEL?.trim()) return undefined;
  return {
    baseUrl: settings.EMBEDDINGS_BASE_URL,
    apiKey: settings.EMBEDDINGS_API_KEY || undefined,
    model: settings.EMBEDDINGS_MODEL.trim(),
    dimensions: settings.EMBEDDINGS_DIMENSIONS,
    vectorSearch: settings.EMBEDDINGS_VECTOR_SEARCH ?? "auto",
  };
}
