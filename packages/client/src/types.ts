// The shapes of Parley API version 1 (GET /api/openapi.json). Written out here so the client has no
// runtime dependency; the test suite asserts they equal the server's own schemas and validates real
// responses against the OpenAPI document.

/** Who is writing; every field optional. */
export interface Visitor {
  email?: string;
  name?: string;
  /** International (E.164) format: `+` then 7 to 15 digits. */
  phone?: string;
}

/** The body of a send (spec 2.1). */
export interface SendMessageParams {
  /** 1 to 10,000 characters, not only whitespace. */
  message: string;
  /** From an earlier turn, to continue that conversation. */
  conversationId?: string;
  visitor?: Visitor;
  /** At most 50 keys; values at most 1,024 characters. */
  clientVariables?: Record<string, string>;
}

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** Help-centre articles the answer came from, or related to the question. */
export interface ArticlesContent {
  type: "articles";
  articles: Array<{ id: string; title: string; url: string }>;
}

/** Buttons to offer the visitor. */
export interface ButtonsContent {
  type: "buttons";
  buttons: Array<{ label: string; action: "handoff" | "url" | "message"; value?: string }>;
}

/** Switch on `type`; new types may appear within version 1, so ignore the ones you do not know. */
export type RichContentItem = ArticlesContent | ButtonsContent;

export type ConversationStatus = "active" | "escalated";

/** The reply to a send (spec 2.2). */
export interface MessageResponse {
  conversationId: string;
  reply: string;
  tokenUsage: number;
  toolCalls: ToolCall[];
  richContent: RichContentItem[];
  handoffRequested: boolean;
  status: ConversationStatus;
}

export interface HelpCollection {
  id: string;
  name: string;
  count: number;
}

export interface HelpArticleSummary {
  id: string;
  sourceId: string;
  title: string;
  excerpt: string;
}

export interface HelpArticle {
  id: string;
  sourceId: string;
  sourceName: string;
  title: string;
  /** Markdown. */
  content: string;
  /** ISO 8601. */
  updatedAt: string;
}

export interface HelpCollections {
  collections: HelpCollection[];
}

export interface HelpArticles {
  articles: HelpArticleSummary[];
}

export interface HelpArticleQuery {
  /** Only articles of this collection. */
  source?: string;
  /** Words or part of a word; at most 100 characters. */
  q?: string;
  /** With `q`: "recent" (the default, most recently updated first) or "relevance" (best match first, for a search box). */
  sort?: "recent" | "relevance";
}

/** Every error body (spec 2.7). */
export interface ErrorBody {
  error: string;
  details?: string;
}

/** What `messages.stream()` yields: pieces of the reply as the agent writes it, then the reply. */
export type MessageStreamEvent =
  /** `delta`: the new piece; `text`: the reply so far. A preview: the `message` event is the reply. */
  | { type: "delta"; delta: string; text: string }
  /** Last: the same body `send()` resolves to (what is stored). */
  | { type: "message"; message: MessageResponse };
