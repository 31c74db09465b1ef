// The agent engine interface: given the agent, the conversation so far, the message, visitor and
// variables, produce a reply. Engines do no writes; the caller persists the turn in one transaction.
import type { Database } from "@parley/db";
import type { SemanticSearch } from "../knowledge/semantic/nearest.ts";

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** Rich content items (our shapes; the spec leaves them open). */
export type RichContentItem =
  | {
      type: "articles";
      articles: Array<{ id: string; title: string; url: string }>;
    }
  | {
      type: "buttons";
      buttons: Array<{ label: string; action: "handoff" | "url" | "message"; value?: string }>;
    };

export interface EngineAgent {
  id: string;
  name: string;
  engine: "knowledge" | "llm";
  instructions: string;
  /** LLM engine: may answer beyond the retrieved help passages (off: only from them). */
  answerBeyondArticles?: boolean;
}

export interface EngineHistoryMessage {
  role: "user" | "agent" | "human";
  text: string;
  toolCalls: ToolCall[];
  /** Whether an agent message answered from the knowledge base (used for "unanswered" streaks). */
  answered?: boolean;
}

export interface EngineVisitor {
  email?: string;
  name?: string;
  phone?: string;
}

export interface EngineInput {
  agent: EngineAgent;
  /** Earlier messages of the conversation, oldest first. */
  history: EngineHistoryMessage[];
  message: string;
  visitor: EngineVisitor;
  /** clientVariables (HTTP API) or page variables (widget). */
  variables: Record<string, string>;
  /** Status before this turn. */
  status: "active" | "escalated";
  signal?: AbortSignal;
  /**
   * The listener cut the reply short (a spoken reply interrupted): stop writing and return what
   * was written. Unlike `signal`, this is not a failure.
   */
  stopSignal?: AbortSignal;
  /** Tools registered by the widget page; the LLM engine offers them to the model. */
  clientTools?: ClientTool[];
  /**
   * Called with each piece of the reply's text as it is produced, for the streaming forms (SSE,
   * the widget's message.delta). Engines that answer at once never call it. The pieces are a
   * preview: the result's `reply` is the answer (it may differ, e.g. a fallback when the model
   * produced no text).
   */
  onDelta?: (text: string) => void;
}

/** A tool that runs in the visitor's browser (widget / SDK): the call goes to the page and back. */
export interface ClientTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
  /** Runs the tool in the page; resolves with its result, or `{ error }` (never rejects). */
  call(args: Record<string, unknown>): Promise<unknown>;
}

export interface EngineResult {
  reply: string;
  tokenUsage: number;
  toolCalls: ToolCall[];
  richContent: RichContentItem[];
  handoffRequested: boolean;
}

export interface Engine {
  run(input: EngineInput): Promise<EngineResult>;
}

/** What engines may read: the database (read only) and how to build public links. */
export interface EngineDeps {
  db: Database;
  appUrl: string;
  /** Passages nearest in meaning (knowledge/semantic/nearest.ts); absent when no embeddings endpoint is configured. */
  semantic?: SemanticSearch;
}

/** The LLM agent's OpenAI-compatible endpoint (index.ts builds it from the settings; llm.ts calls it). */
export interface LlmConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}
