// Which engine answers for an agent: the knowledge agent by default; the LLM agent when the agent
// is set to it AND an OpenAI-compatible endpoint is configured (LLM_BASE_URL / LLM_MODEL). An
// agent set to "llm" on a deployment without an endpoint falls back to the knowledge agent rather
// than failing every turn; the panel shows the setting, docs/operators/llm-engine.md says so.
import { optionalUrl } from "@parley/db";
import { z } from "zod";
import { createKnowledgeEngine } from "./knowledge.ts";
import type { Engine, EngineAgent, EngineDeps, LlmConfig } from "./types.ts";

export { KNOWLEDGE_MIN_CONFIDENCE } from "./confidence.ts";
export { createKnowledgeEngine, searchKnowledge } from "./knowledge.ts";
export type * from "./types.ts";

/** The LLM agent's environment variables; the app's settings (and the eval) include them. */
export const llmSettingsSchema = z.object({
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
});

export type LlmSettings = z.infer<typeof llmSettingsSchema>;

/** The endpoint configuration, or undefined when LLM_BASE_URL or LLM_MODEL is unset. */
export function llmConfigFrom(settings: LlmSettings): LlmConfig | undefined {
  if (!settings.LLM_BASE_URL || !settings.LLM_MODEL) return undefined;
  return { baseUrl: settings.LLM_BASE_URL, apiKey: settings.LLM_API_KEY, model: settings.LLM_MODEL, timeoutMs: settings.LLM_TIMEOUT_MS };
}

export function createEngineSelector(deps: EngineDeps & { llm?: LlmConfig }): (agent: EngineAgent) => Engine {
  const engineDeps: EngineDeps = { db: deps.db, appUrl: deps.appUrl, semantic: deps.semantic };
  const knowledge = createKnowledgeEngine(engineDeps);
  const llm = deps.llm ? lazyLlmEngine(engineDeps, deps.llm) : undefined;
  return (agent) => (agent.engine === "llm" && llm ? llm : knowledge);
}

/**
 * The LLM engine, loaded on its first turn: the AI SDK stays out of processes (and cold starts)
 * whose agents never use it.
 */
function lazyLlmEngine(deps: EngineDeps, config: LlmConfig): Engine {
  let engine: Promise<Engine> | undefined;
  return {
    async run(input) {
      engine ??= import("./llm.ts")
        .then((module) => module.createLlmEngine(deps, config))
        .catch((error: unknown) => {
          engine = undefined; // try again on the next turn
          throw error;
        });
      return (await engine).run(input);
    },
  };
}
