// Semantic retrieval of this process: the embeddings endpoint's client and the passage search
// (pgvector, or the in-process index), built once from the settings (src/env.ts), or null when EMBEDDINGS_BASE_URL or
// EMBEDDINGS_MODEL is unset (retrieval is then lexical only).
import { describeError, logger } from "@parley/core";
import { createSemanticSearch, embeddingsConfigFrom, type SemanticSearch } from "@parley/core/knowledge";
import { getDb } from "@parley/db";
import { appEnv } from "../env.ts";
import { processRegistry } from "./registry.ts";

async function build(): Promise<SemanticSearch | null> {
  const config = embeddingsConfigFrom(appEnv());
  if (!config) return null;
  return createSemanticSearch({ db: await getDb(), config });
}

export function getSemanticSearch(): Promise<SemanticSearch | null> {
  const registry = processRegistry();
  registry.semantic ??= build();
  return registry.semantic;
}

/** Throws when the settings ask for a vector search this database cannot do (pgvector without it). */
export async function checkVectorSearch(): Promise<void> {
  const semantic = await getSemanticSearch();
  if (semantic) await semantic.passages.kind();
}

/** Loads the stored vectors in the background; a failure is logged and the first query tries again. */
export function warmSemanticIndex(): void {
  void getSemanticSearch()
    .then(async (semantic) => {
      if (!semantic) return;
      const started = performance.now();
      await semantic.passages.sync();
      logger.info("passage index loaded", {
        model: semantic.embedder.model,
        search: await semantic.passages.kind(),
        passages: await semantic.passages.count(),
        ms: Math.round(performance.now() - started),
      });
    })
    .catch((error: unknown) => logger.warn("loading the passage index failed", { error: describeError(error) }));
}
