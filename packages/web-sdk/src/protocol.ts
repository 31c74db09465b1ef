// The wire format of protocol `parley.v1` as the browser sees it (the server's definition is in
// packages/core/src/widget/protocol.ts; the README's "Widget protocol" section documents both).

export type ConversationStatus = "active" | "escalated";

export type RichContentItem =
  | { type: "articles"; articles: Array<{ id: string; title: string; url: string }> }
  | { type: "buttons"; buttons: Array<{ label: string; action: "handoff" | "url" | "message"; value?: string }> };

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface Message {
  id: string;
  /** `user`: the visitor; `agent`: the AI agent; `human`: a person of the team (after a handoff). */
  role: "user" | "agent" | "human";
  text: string;
  richContent: RichContentItem[];
  toolCalls: ToolCall[];
  /** ISO 8601. */
  createdAt: string;
  /**
   * Agent and team replies: `text` as HTML, rendered and sanitised by the server (the help centre's
   * Markdown renderer and sanitiser). Show Markdown only through this; never parse `text` as HTML.
   */
  html?: string;
  /** The id `send()` returned, on the reply to that message. */
  clientMessageId?: string;
}

export interface Visitor {
  name?: string;
  email?: string;
  phone?: string;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters?: Record<string, unknown>;
}

export type ClientFrame =
  | {
      type: "hello";
      agentId: string;
      visitor?: Visitor;
      resumeToken?: string;
      /** The page the visitor is on (http or https), shown to the team as the visitor's identity. */
      pageUrl?: string;
      pageVariables?: Record<string, string>;
      tools?: ToolDefinition[];
    }
  | { type: "message"; text: string; clientMessageId?: string }
  | { type: "page_variables"; variables: Record<string, string> }
  | { type: "track"; event: string; properties?: Record<string, unknown> }
  | { type: "tools"; tools: ToolDefinition[] }
  | { type: "tool_result"; callId: string; result?: unknown; error?: string }
  /** "Was this helpful?" on an agent reply (a message id of this conversation). */
  | { type: "feedback"; messageId: string; helpful: boolean };

export interface ReadyFrame {
  type: "ready";
  conversationId: string | null;
  resumeToken: string | null;
  status: ConversationStatus;
  /** While a person of the team has the conversation: their name; else null. */
  person?: string | null;
  messages: Message[];
  /** The agent's widget settings from the panel. */
  config?: WidgetConfig;
}

export type WidgetSuggestion = { type: "question"; text: string } | { type: "article"; title: string; url: string };

export interface WidgetConfig {
  title: string;
  /** The first message shown when the widget opens on a new conversation. */
  greeting: string;
  /** #rrggbb, and white or black: whichever reads on it. */
  accentColor: string;
  accentTextColor: string;
  /** Up to 5: a question is sent on click, an article opens. */
  suggestions: WidgetSuggestion[];
}

export interface ErrorFrame {
  type: "error";
  /** The same short texts as the HTTP API, e.g. "Monthly conversation quota exhausted". */
  error: string;
  details?: string;
  clientMessageId?: string;
  /** Seconds, with "Rate limit exceeded". */
  retryAfter?: number;
}

export type ServerFrame =
  | ReadyFrame
  /** `person`: a team member typing in the panel; absent: the agent's turn. */
  | { type: "typing"; active: boolean; person?: string }
  | { type: "message.delta"; delta: string; clientMessageId?: string }
  | ({ type: "message" } & Message)
  | { type: "tool_call"; callId: string; name: string; args: Record<string, unknown> }
  | { type: "status"; status: ConversationStatus; person?: string | null }
  /** The visitor's "Was this helpful?" answer was stored. */
  | { type: "feedback"; messageId: string; helpful: boolean }
  | ErrorFrame;

export const SUBPROTOCOL = "parley.v1";

/** Close codes after which reconnecting cannot help. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4403, 4404, 4426]);
