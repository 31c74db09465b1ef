// Semantic retrieval in the eval: with EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL set (as for the
// app), the corpus is embedded through that endpoint by the app's own worker code before any
// question, and every turn fuses the nearest passages in, exactly as a server would.
import { createSemanticSearch, EmbeddingIndexer, type EmbeddingsConfig, type SemanticSearch } from "@parley/core/knowledge";
import type { Database } from "@parley/db";

/** Waits far longer than a live turn would: the eval measures answers, not the endpoint's speed. */
const EVAL_QUERY_TIMEOUT_MS = 60_000;

export function evalSemanticSearch(db: Database, config: EmbeddingsConfig): SemanticSearch {
  return createSemanticSearch({ db, config, queryTimeoutMs: EVAL_QUERY_TIMEOUT_MS });
}

/** Embeds every article of the loaded corpus and loads the vectors; throws when any article failed. */
export async function embedCorpus(db: Database, semantic: SemanticSearch): Promise<string> {
  const started = performance.now();
  const outcome = await new EmbeddingIndexer({ db, embedder: semantic.embedder, vectorSearch: semantic.passages.setting }).drain();
  if (outcome.failed > 0) throw new Error(`Embedding the corpus failed for ${outcome.failed} articles (see the warnings above)`);
  await semantic.passages.sync();
  const search = (await semantic.passages.kind()) === "pgvector" ? "pgvector" : "the in-process index";
  return `Embedded ${outcome.passagesEmbedded} passages of ${outcome.embedded} articles with ${semantic.embedder.model} in ${Math.round(performance.now() - started)} ms; searched by ${search}.`;
}
