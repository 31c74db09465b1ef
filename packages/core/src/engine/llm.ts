// The LLM agent: any OpenAI-compatible chat endpoint driven through the Vercel AI SDK, answering
// from the passages the knowledge agent's retrieval finds for the message (grounding.ts), listed
// in the prompt as numbered sources. Unless the agent's setting allows more, it answers only from
// them; the articles it cites ("[1]") become the reply's articles rich content. The reply streams
// (`onDelta`) as the provider sends it, without the citation markers. Two real tools: a further
// knowledge search (its passages become further sources) and a request for a human. The
// provider's tool calls and token usage are reported as they are. Engines do no writes.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, jsonSchema, stepCountIs, streamText, type Tool, tool } from "ai";
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import { logger } from "../platform/logger.ts";
import { CitationFilter } from "./citations.ts";
import { retrievePassages } from "./grounding.ts";
import { LLM_MAX_STEPS, LLM_SEARCH_RESULTS } from "./limits.ts";
import { buildMessages, buildSystemPrompt, type PromptSource } from "./llm-prompt.ts";
import { countTokens } from "./tokens.ts";
import { HANDOFF_TOOL, SEARCH_TOOL } from "./tools.ts";
import type { Engine, EngineDeps, EngineInput, EngineResult, LlmConfig, RichContentItem, ToolCall } from "./types.ts";

export type { LlmConfig };

/** Used only when the model ends the turn without text (e.g. it ran out of steps). */
const FALLBACK_REPLY = "Sorry, I couldn't find an answer to that. Would you like to talk to a person?";
const FALLBACK_HANDOFF_REPLY = "I've asked a person to join this conversation; they will follow up here.";

/** A failure of our own side (the knowledge search): the turn fails (500), the model is not told. */
class RetrievalFailed extends Error {
  constructor() {
    super("knowledge search failed");
    this.name = "RetrievalFailed";
  }
}

export function createLlmEngine(deps: EngineDeps, config: LlmConfig): Engine {
  // includeUsage: streamed completions report their token usage only when asked.
  const provider = createOpenAICompatible({ name: "llm", baseURL: config.baseUrl, apiKey: config.apiKey, includeUsage: true });
  const model = provider.chatModel(config.model);

  return {
    async run(input: EngineInput): Promise<EngineResult> {
      const startedAt = Date.now();
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const stopOnToolFailure = new AbortController();
      const signal = AbortSignal.any(
        [timeout, stopOnToolFailure.signal, input.signal, input.stopSignal].filter((s): s is AbortSignal => s !== undefined),
      );
      // Stopped by the listener (and by nothing else): the reply ends with what was written.
      const stopped = () => input.stopSignal?.aborted === true && !timeout.aborted && !toolFailure && input.signal?.aborted !== true;
      const sources: PromptSource[] = [];
      const filter = new CitationFilter();
      let toolFailure = false;

      const search = async (query: string): Promise<PromptSource[]> => {
        try {
          const found: PromptSource[] = [];
          for (const passage of await groundingFor(deps, input, query)) {
            const source = { ...passage, number: sources.length + 1 };
            sources.push(source);
            found.push(source);
          }
          return found;
        } catch {
          toolFailure = true;
          stopOnToolFailure.abort();
          throw new RetrievalFailed();
        }
      };

      const toolCalls: ToolCall[] = [{ name: SEARCH_TOOL, args: { query: input.message } }];
      let text = "";
      let tokenUsage = 0;
      try {
        await search(input.message);
        const stream = streamText({
          model,
          system: buildSystemPrompt(input, sources),
          messages: buildMessages(input),
          tools: toolsFor(input, search),
          stopWhen: stepCountIs(LLM_MAX_STEPS),
          // A retry would outlive the timeout and double-bill; one attempt, then 500.
          maxRetries: 0,
          abortSignal: signal,
          // The stream's error part fails the turn below; the SDK's default would print the error,
          // request body (the visitor's message) included, to the console.
          onError: () => {},
        });
        for await (const part of stream.fullStream) {
          if (part.type === "text-delta") text += emit(filter.push(part.text), input);
          else if (part.type === "tool-call") toolCalls.push({ name: part.toolName, args: asArgs(part.input) });
          else if (part.type === "finish") tokenUsage = totalTokens(part.totalUsage);
          else if (part.type === "error") throw part.error;
          else if (part.type === "abort") {
            if (stopped()) break;
            throw new Error("aborted");
          }
        }
        if (signal.aborted && !stopped()) throw new Error("aborted");
        text += emit(filter.flush(), input);
        if (stopped()) return stoppedResult({ message: input.message, text, toolCalls, sources, filter });
      } catch (error) {
        if (stopped()) return stoppedResult({ message: input.message, text: text + filter.flush(), toolCalls, sources, filter });
        // Safe fields only: the error objects carry the request body (message text) and headers.
        logger.warn("llm turn failed", {
          agentId: input.agent.id,
          reason: failureReason(error, { timeout, toolFailure, caller: input.signal }),
          durationMs: Date.now() - startedAt,
        });
        throw new AppError("INTERNAL");
      }

      const handoffRequested = toolCalls.some((call) => call.name === HANDOFF_TOOL);
      const reply = text.trim() || (handoffRequested ? FALLBACK_HANDOFF_REPLY : FALLBACK_REPLY);
      const richContent = citedArticles(sources, filter.cited);
      logger.debug("llm turn", {
        agentId: input.agent.id,
        sources: sources.length,
        cited: filter.cited.length,
        toolCalls: toolCalls.map((call) => call.name),
        tokenUsage,
        durationMs: Date.now() - startedAt,
      });
      return { reply, tokenUsage, toolCalls, richContent, handoffRequested };
    },
  };
}

/**
 * A reply the listener cut short: what was written and its citations. The provider reports usage
 * only at the end, so the tokens are counted as the knowledge agent counts them (message + reply):
 * interrupting every reply must not make turns free.
 */
function stoppedResult(cut: {
  message: string;
  text: string;
  toolCalls: ToolCall[];
  sources: PromptSource[];
  filter: CitationFilter;
}): EngineResult {
  const { text, toolCalls, sources, filter } = cut;
  return {
    reply: text.trim() || "…",
    tokenUsage: countTokens(cut.message) + countTokens(text),
    toolCalls,
    richContent: citedArticles(sources, filter.cited),
    handoffRequested: toolCalls.some((call) => call.name === HANDOFF_TOOL),
  };
}

/**
 * The passages for a query. The visitor's own message is read with their earlier messages, as the
 * knowledge agent reads it; a follow-up too short to find anything that way ("and for how long?")
 * is searched again as one text with the previous message. A query the model writes stands alone.
 */
async function groundingFor(deps: EngineDeps, input: EngineInput, query: string) {
  if (query !== input.message) return retrievePassages(deps, input.agent.id, query, LLM_SEARCH_RESULTS);
  const earlier = input.history.filter((message) => message.role === "user").map((message) => message.text);
  const passages = await retrievePassages(deps, input.agent.id, query, LLM_SEARCH_RESULTS, earlier);
  const previous = earlier.at(-1);
  if (passages.length > 0 || !previous) return passages;
  return retrievePassages(deps, input.agent.id, `${previous} ${query}`, LLM_SEARCH_RESULTS);
}

function toolsFor(input: EngineInput, search: (query: string) => Promise<PromptSource[]>): Record<string, Tool> {
  const builtIn: Record<string, Tool> = {
    [SEARCH_TOOL]: tool({
      description: "Search this agent's help-centre articles again, with other words. Returns further numbered sources.",
      inputSchema: z.object({ query: z.string().describe("What to search for, in a few words") }),
      execute: async ({ query }) => {
        const found = await search(query);
        return found.length > 0 ? { sources: found } : { sources: [], note: "No matching articles." };
      },
    }),
    [HANDOFF_TOOL]: tool({
      description: "Hand the conversation to a person, when the visitor asks for one or you cannot help.",
      inputSchema: z.object({ reason: z.string().describe("Why a person is needed, in a few words") }),
      execute: async () => ({ status: "A person has been asked to join and will follow up in this conversation." }),
    }),
  };
  // Tools of the widget page (run in the browser); built-in names cannot be taken.
  const tools = { ...builtIn };
  for (const clientTool of input.clientTools ?? []) {
    if (clientTool.name in builtIn) continue;
    tools[clientTool.name] = tool({
      description: clientTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(clientTool.parameters as Parameters<typeof jsonSchema>[0]),
      execute: (args) => clientTool.call(asArgs(args)),
    });
  }
  return tools;
}

/** Passes a piece of the reply on to the streaming caller, and returns it. */
function emit(piece: string, input: EngineInput): string {
  if (piece !== "") input.onDelta?.(piece);
  return piece;
}

/** The articles of the cited sources, in the order first cited, each once. */
function citedArticles(sources: PromptSource[], cited: number[]): RichContentItem[] {
  const articles = new Map<string, { id: string; title: string; url: string }>();
  for (const number of cited) {
    const source = sources[number - 1];
    if (source && !articles.has(source.articleId))
      articles.set(source.articleId, { id: source.articleId, title: source.title, url: source.url });
  }
  return articles.size > 0 ? [{ type: "articles", articles: [...articles.values()] }] : [];
}

function totalTokens(usage: { totalTokens?: number; inputTokens?: number; outputTokens?: number }): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** Tool-call args as the provider sent them (an unparsable input is recorded as no args). */
function asArgs(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function failureReason(error: unknown, context: { timeout: AbortSignal; toolFailure: boolean; caller?: AbortSignal }): string {
  if (context.toolFailure || error instanceof RetrievalFailed) return "knowledge search failed";
  if (context.timeout.aborted) return "timeout";
  if (context.caller?.aborted) return "aborted by caller";
  if (APICallError.isInstance(error)) return `provider error ${error.statusCode ?? "(no status)"}`;
  return error instanceof Error ? error.name : "unknown";
}
