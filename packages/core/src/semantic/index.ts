// Semantic retrieval: passages embedded through an OpenAI-compatible embeddings endpoint by the
// worker, stored in the database, searched by pgvector where the database has it and otherwise in
// process by exact nearest neighbour. See the README's "Semantic retrieval" section.
export { createEmbedder, type Embedder } from "./embedder.ts";
export { EmbeddingIndexer, type EmbeddingIndexerOptions, type PassOutcome } from "./indexer.ts";
export { createSemanticSearch, nearestPassages, type SemanticDeps, type SemanticSearch } from "./nearest.ts";
export { PassageSearch, PGVECTOR_MISSING, type VectorSearchKind } from "./passage-search.ts";
export { passagesOf } from "./passages.ts";
export { pgvectorUsable } from "./pgvector.ts";
export {
  type EmbeddingsConfig,
  type EmbeddingsSettings,
  embeddingsConfigFrom,
  embeddingsSettingsSchema,
  type VectorSearchSetting,
} from "./settings.ts";
export { StoredPassageIndex } from "./stored-index.ts";
export { EMBEDDINGS_INTERVAL_MS, embeddingsTask } from "./task.ts";
export { type Neighbour, unitVector, VectorIndex } from "./vector-index.ts";
