// Semantic retrieval: passages embedded through an OpenAI-compatible embeddings endpoint by the
// worker, stored in the database, searched in process by exact nearest neighbour. See the README's
// "Semantic retrieval" section.
export { createEmbedder, type Embedder } from "./embedder.ts";
export { EmbeddingIndexer, type EmbeddingIndexerOptions, type PassOutcome } from "./indexer.ts";
export { createSemanticSearch, nearestPassages, type SemanticDeps, type SemanticSearch } from "./nearest.ts";
export { passagesOf } from "./passages.ts";
export { type EmbeddingsConfig, type EmbeddingsSettings, embeddingsConfigFrom, embeddingsSettingsSchema } from "./settings.ts";
export { StoredPassageIndex } from "./stored-index.ts";
export { type Neighbour, unitVector, VectorIndex } from "./vector-index.ts";
