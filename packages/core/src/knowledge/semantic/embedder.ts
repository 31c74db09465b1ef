// Calls an OpenAI-compatible embeddings endpoint through the AI SDK (the same provider package as
// the LLM engine), loaded on first use so processes without semantic retrieval never load it.
import type { EmbeddingsConfig } from "./settings.ts";
import { unitVector } from "./vector-index.ts";

export interface Embedder {
  /**
   * What the vectors are stored under: the model's name, with "@<dimensions>" when shortened. A
   * change of either is a new model, and every article is embedded again.
   */
  readonly model: string;
  /** Unit-length vectors of `texts`, in order. One attempt: the caller decides about retries. */
  embed(texts: string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<Float32Array[]>;
}

export function createEmbedder(config: EmbeddingsConfig): Embedder {
  let model: Promise<Parameters<typeof import("ai").embedMany>[0]["model"]> | undefined;
  const load = () => {
    model ??= import("@ai-sdk/openai-compatible")
      .then(({ createOpenAICompatible }) =>
        createOpenAICompatible({ name: "embeddings", baseURL: config.baseUrl, apiKey: config.apiKey }).embeddingModel(config.model),
      )
      .catch((error: unknown) => {
        model = undefined;
        throw error;
      });
    return model;
  };
  return {
    model: config.dimensions ? `${config.model}@${config.dimensions}` : config.model,
    async embed(texts, options) {
      if (texts.length === 0) return [];
      const { embedMany } = await import("ai");
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const { embeddings } = await embedMany({
        model: await load(),
        values: texts,
        maxRetries: 0,
        providerOptions: config.dimensions ? { embeddings: { dimensions: config.dimensions } } : undefined,
        abortSignal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      });
      if (embeddings.length !== texts.length)
        throw new Error(`The embeddings endpoint returned ${embeddings.length} vectors for ${texts.length} texts`);
      return embeddings.map((values) => unitVector(values));
    },
  };
}
