// The LLM agent: any OpenAI-compatible chat endpoint driven through the Vercel AI SDK, with two real
// tools (knowledge search over the agent's visible articles, and a request for a human). The
// provider's tool calls and token usage are reported as they are. Engines do no writes.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, jsonSchema, stepCountIs, type Tool, tool } from "ai";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { searchVisibleArticles } from "../help/search.ts";
import { helpArticleUrl } from "../help/urls.ts";
import { LLM_ARTICLE_CHARS, LLM_MAX_STEPS, LLM_SEARCH_RESULTS } from "../limits.ts";
import { logger } from "../logger.ts";
import type { LlmConfig } from "./index.ts";
import { buildMessages, buildSystemPrompt } from "./llm-prompt.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { Engine, EngineDeps, EngineInput, EngineResult, RichContentItem, ToolCall } from "./types.ts";

export type { LlmConfig };

type ArticleLink = { id: string; title: string; url: string };

/** Used only when the model ends the turn without text (e.g. it ran out of steps). */
const FALLBACK_REPLY = "Sorry, I couldn't find an answer to that. Would you like to talk to a person?";
const FALLBACK_HANDOFF_REPLY = "I've asked a person to join this conversation; they will follow up here.";

export function createLlmEngine(deps: EngineDeps, config: LlmConfig): Engine {
  const provider = createOpenAICompatible({ name: "llm", baseURL: config.baseUrl, apiKey: config.apiKey });
  const model = provider.chatModel(config.model);

  return {
    async run(input: EngineInput): Promise<EngineResult> {
      const { agent } = input;
      const articles = new Map<string, ArticleLink>();
      // A failing database must fail the turn (500), not be shown to the model as a tool error.
      const stopOnToolFailure = new AbortController();
      let toolFailure: unknown;
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const signal = AbortSignal.any([timeout, stopOnToolFailure.signal, input.signal].filter((s): s is AbortSignal => s !== undefined));

      const builtInTools = {
        [SEARCH_TOOL]: tool({
          description: "Search this agent's help-centre articles. Returns the best matching articles.",
          inputSchema: z.object({ query: z.string().describe("What to search for, in a few words") }),
          execute: async ({ query }) => {
            try {
              const hits = await searchVisibleArticles(deps.db, agent.id, query, {
                limit: LLM_SEARCH_RESULTS,
                order: "relevance",
              });
              const results = hits.map((hit) => {
                const link = { id: hit.id, title: hit.title, url: helpArticleUrl(deps.appUrl, agent.id, hit.id) };
                articles.set(hit.id, link);
                return { ...link, content: truncate(hit.content, LLM_ARTICLE_CHARS) };
              });
              return results.length > 0 ? { articles: results } : { articles: [], note: "No matching articles." };
            } catch (error) {
              toolFailure = error;
              stopOnToolFailure.abort();
              throw error;
            }
          },
        }),
        [HANDOFF_TOOL]: tool({
          description: "Hand the conversation to a person, when the visitor asks for one or you cannot help.",
          inputSchema: z.object({ reason: z.string().describe("Why a person is needed, in a few words") }),
          execute: async () => ({ status: "A person has been asked to join and will follow up in this conversation." }),
        }),
      };
      // Tools of the widget page (run in the browser); built-in names cannot be taken.
      const tools: typeof builtInTools & Record<string, Tool> = { ...builtInTools };
      for (const clientTool of input.clientTools ?? []) {
        if (clientTool.name in builtInTools) continue;
        tools[clientTool.name] = tool({
          description: clientTool.description,
          inputSchema: jsonSchema<Record<string, unknown>>(clientTool.parameters as Parameters<typeof jsonSchema>[0]),
          execute: (args) => clientTool.call(asArgs(args)),
        });
      }

      const startedAt = Date.now();
      let result: Awaited<ReturnType<typeof generateText<typeof tools>>>;
      try {
        result = await generateText({
          model,
          system: buildSystemPrompt(input),
          messages: buildMessages(input),
          tools,
          stopWhen: stepCountIs(LLM_MAX_STEPS),
          // A retry would outlive the timeout and double-bill; one attempt, then 500.
          maxRetries: 0,
          abortSignal: signal,
        });
      } catch (error) {
        // Safe fields only: the error objects carry the request body (message text) and headers.
        logger.warn("llm turn failed", {
          agentId: agent.id,
          reason: failureReason(error, { timeout, toolFailure, caller: input.signal }),
          durationMs: Date.now() - startedAt,
        });
        throw new AppError("INTERNAL");
      }

      const toolCalls: ToolCall[] = result.steps.flatMap((step) =>
        step.toolCalls.map((call) => ({ name: call.toolName, args: asArgs(call.input) })),
      );
      const handoffRequested = toolCalls.some((call) => call.name === HANDOFF_TOOL);
      const tokenUsage = result.totalUsage.totalTokens ?? (result.totalUsage.inputTokens ?? 0) + (result.totalUsage.outputTokens ?? 0);
      const richContent: RichContentItem[] = articles.size > 0 ? [{ type: "articles", articles: [...articles.values()] }] : [];
      const text = result.text.trim();
      const reply = text || (handoffRequested ? FALLBACK_HANDOFF_REPLY : FALLBACK_REPLY);

      logger.debug("llm turn", {
        agentId: agent.id,
        steps: result.steps.length,
        toolCalls: toolCalls.map((call) => call.name),
        tokenUsage,
        durationMs: Date.now() - startedAt,
      });
      return { reply, tokenUsage, toolCalls, richContent, handoffRequested };
    },
  };
}

function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

/** Tool-call args as the provider sent them (an unparsable input is recorded as no args). */
function asArgs(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function failureReason(error: unknown, context: { timeout: AbortSignal; toolFailure: unknown; caller?: AbortSignal }): string {
  if (context.toolFailure !== undefined) return "knowledge search failed";
  if (context.timeout.aborted) return "timeout";
  if (context.caller?.aborted) return "aborted by caller";
  if (APICallError.isInstance(error)) return `provider error ${error.statusCode ?? "(no status)"}`;
  return error instanceof Error ? error.name : "unknown";
}
