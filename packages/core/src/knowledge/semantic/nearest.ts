// Semantic retrieval for a turn: the passages nearest in meaning to a visitor's text, among the
// articles the agent's help centre shows. The question is embedded with a short timeout; on any
// failure (endpoint down or slow, the index still loading) the answer is null and the turn goes on
// with lexical retrieval alone.
import { type Database, Prisma } from "@parley/db";
import { describeError, logger } from "../../platform/logger.ts";
import { EMBEDDINGS_QUERY_MAX_CHARS, EMBEDDINGS_QUERY_TIMEOUT_MS } from "../limits.ts";
import { articleIsVisibleSql, visibleSourcesSql } from "../visibility.ts";
import { createEmbedder, type Embedder } from "./embedder.ts";
import { PassageSearch } from "./passage-search.ts";
import type { EmbeddingsConfig, VectorSearchSetting } from "./settings.ts";
import type { Neighbour } from "./vector-index.ts";

/** Candidates taken from the index per passage asked for, before the visibility check drops some. */
const CANDIDATES_PER_RESULT = 4;

export interface SemanticSearch {
  embedder: Embedder;
  passages: PassageSearch;
  queryTimeoutMs: number;
}

export function createSemanticSearch(options: {
  db: Database;
  config: EmbeddingsConfig;
  embedder?: Embedder;
  queryTimeoutMs?: number;
  syncIntervalMs?: number;
  /** Default: the config's (EMBEDDINGS_VECTOR_SEARCH), else auto. */
  vectorSearch?: VectorSearchSetting;
}): SemanticSearch {
  const embedder = options.embedder ?? createEmbedder(options.config);
  return {
    embedder,
    passages: new PassageSearch(options.db, embedder.model, options.vectorSearch ?? options.config.vectorSearch, options.syncIntervalMs),
    queryTimeoutMs: options.queryTimeoutMs ?? EMBEDDINGS_QUERY_TIMEOUT_MS,
  };
}

export interface SemanticDeps {
  db: Database;
  /** Absent: no embeddings endpoint configured. */
  semantic?: SemanticSearch;
}

/**
 * The `k` passages of the agent's visible articles nearest to `text`, best first, with their
 * cosine similarity; null when semantic retrieval is not configured or fails.
 */
export async function nearestPassages(deps: SemanticDeps, agentId: string, text: string, k: number): Promise<Neighbour[] | null> {
  const semantic = deps.semantic;
  if (!semantic || k <= 0 || !text.trim()) return semantic ? [] : null;
  const started = performance.now();
  try {
    const deadline = AbortSignal.timeout(semantic.queryTimeoutMs);
    const [vectors, sources] = await Promise.all([
      semantic.embedder.embed([text.slice(0, EMBEDDINGS_QUERY_MAX_CHARS)], { timeoutMs: semantic.queryTimeoutMs, signal: deadline }),
      visibleSourceIds(deps.db, agentId),
      beforeDeadline(semantic.passages.ready(), deadline),
    ]);
    const candidates = await beforeDeadline(semantic.passages.nearest(vectors[0]!, k * CANDIDATES_PER_RESULT, sources), deadline);
    const visible = await visibleArticleIds(deps.db, agentId, [...new Set(candidates.map((hit) => hit.articleId))]);
    return candidates.filter((hit) => visible.has(hit.articleId)).slice(0, k);
  } catch (error) {
    logger.warn("semantic retrieval failed; lexical retrieval answers alone", {
      agentId,
      ms: Math.round(performance.now() - started),
      error: describeError(error),
    });
    return null;
  }
}

/** The index may still be loading at start; the turn does not wait past its deadline for it. */
function beforeDeadline<T>(promise: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("The passage index was not ready before the query's timeout"));
    if (deadline.aborted) onAbort();
    deadline.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => deadline.removeEventListener("abort", onAbort));
  });
}

async function visibleSourceIds(db: Database, agentId: string): Promise<Set<string>> {
  const rows = await db.prisma.$queryRaw<Array<{ id: string }>>`SELECT v."id" FROM (${visibleSourcesSql(agentId)}) v`;
  return new Set(rows.map((row) => row.id));
}

/** Of `ids`, the articles the agent's help centre shows now (the help centre's own rule). */
async function visibleArticleIds(db: Database, agentId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT a."id" FROM "Article" a WHERE a."id" IN (${Prisma.join(ids)}) AND ${articleIsVisibleSql("a", agentId)}`;
  return new Set(rows.map((row) => row.id));
}
