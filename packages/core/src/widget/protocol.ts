// The widget / SDK wire protocol `parley.v1` (README, "Widget protocol"): JSON text frames, each an
// object with a `type`. Client frames are validated here with zod, reusing the messages API's
// field schemas (conversations/turn/message-schema.ts) so both channels accept exactly the same values.
import { z } from "zod";
import { rateConversationInput } from "../conversations/rating.ts";
import { messageRequestSchema } from "../conversations/turn/message-schema.ts";
import { visitorEmailInput } from "../conversations/visitor-email.ts";
import type { WireClosing, WireMessage, WireRating } from "../conversations/wire-message.ts";
import { pathOfUnstorableText, UNSTORABLE_TEXT_RULE } from "../platform/text.ts";
import { type VoiceServerFrame, voiceClientFrameSchemas } from "../voice/protocol.ts";
import {
  CLIENT_MESSAGE_ID_PATTERN,
  CLIENT_MESSAGE_ID_RULE,
  START_KEY_PATTERN,
  START_KEY_RULE,
  TRACK_EVENT_MAX_CHARS,
  TRACK_PROPERTIES_MAX_BYTES,
  TRACK_PROPERTIES_MAX_KEYS,
  WIDGET_PAGE_URL_MAX_CHARS,
  WIDGET_TOOL_DESCRIPTION_MAX_CHARS,
  WIDGET_TOOL_RESULT_MAX_BYTES,
  WIDGET_TOOL_SCHEMA_MAX_BYTES,
  WIDGET_TOOLS_MAX,
} from "./widget-limits.ts";

export const WIDGET_SUBPROTOCOL = "parley.v1";

export type WidgetSuggestion = { type: "question"; text: string } | { type: "article"; title: string; url: string };

/** The agent's widget settings as the `ready` frame carries them (config.ts resolves them). */
export interface WidgetConfig {
  title: string;
  /** The first message shown when the widget opens on a new conversation. */
  greeting: string;
  accentColor: string;
  /** White or black, whichever reads on the accent. */
  accentTextColor: string;
  /** Shown when the widget opens: a question is sent on click, an article opens. */
  suggestions: WidgetSuggestion[];
  /** Voice mode is offered: the agent has voice on and this server can recognise speech. */
  voice: boolean;
}

/** Close codes (4000-4999 are the application's): the `reason` says the same in words. */
export const CLOSE_CODES = {
  /** A frame that is not JSON, not an object, of an unknown type, or sent before `hello`. */
  PROTOCOL_ERROR: { code: 4400, reason: "Protocol error" },
  /** The `Origin` header is not one of the agent's allowed origins. */
  ORIGIN_NOT_ALLOWED: { code: 4403, reason: "Origin not allowed" },
  /** No such agent, or the agent is inactive. */
  AGENT_NOT_FOUND: { code: 4404, reason: "Agent not found" },
  /** No `hello` within 10 seconds of connecting. */
  HELLO_TIMEOUT: { code: 4408, reason: "No hello received" },
  /** The client's IP already holds as many connections to this agent as the agent allows; reconnect later. */
  TOO_MANY_CONNECTIONS: { code: 4429, reason: "Too many connections" },
  /** The client did not offer the `parley.v1` subprotocol. */
  UNSUPPORTED_PROTOCOL: { code: 4426, reason: "Use the parley.v1 subprotocol" },
  /** The server is shutting down; reconnect (to another instance). */
  GOING_AWAY: { code: 1001, reason: "Server shutting down" },
  /** Unexpected server failure. */
  INTERNAL: { code: 1011, reason: "Internal error" },
} as const;

export type CloseReason = keyof typeof CLOSE_CODES;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

const fields = messageRequestSchema.shape;
/** Same rules as the messages API's clientVariables (keys, value length). */
export const variablesSchema = fields.clientVariables.unwrap();

const toolName = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/, "must be 1 to 64 letters, digits, _ or -, starting with a letter");

export const clientToolSchema = z.strictObject({
  name: toolName,
  description: z.string().max(WIDGET_TOOL_DESCRIPTION_MAX_CHARS, `must be at most ${WIDGET_TOOL_DESCRIPTION_MAX_CHARS} characters`),
  parameters: z
    .record(z.string(), z.unknown())
    .refine((schema) => jsonBytes(schema) <= WIDGET_TOOL_SCHEMA_MAX_BYTES, `must be at most ${WIDGET_TOOL_SCHEMA_MAX_BYTES} bytes as JSON`)
    .default({ type: "object", properties: {} }),
});

const toolsSchema = z
  .array(clientToolSchema)
  .max(WIDGET_TOOLS_MAX, `must have at most ${WIDGET_TOOLS_MAX} tools`)
  .refine((tools) => new Set(tools.map((tool) => tool.name)).size === tools.length, "must have unique names");

/** An http(s) address; anything else (javascript:, data:) is refused rather than shown in the panel. */
const pageUrlSchema = z
  .string()
  .max(WIDGET_PAGE_URL_MAX_CHARS, `must be at most ${WIDGET_PAGE_URL_MAX_CHARS} characters`)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), "must be an http or https URL");

const clientMessageId = z.string().regex(CLIENT_MESSAGE_ID_PATTERN, CLIENT_MESSAGE_ID_RULE);

export const clientFrameSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("hello"),
    agentId: z.string().min(1, "must not be empty").max(100),
    visitor: fields.visitor,
    resumeToken: z.string().max(2_000).optional(),
    // The page's secret for its first message sent again (conversations/turn/client-message.ts).
    startKey: z.string().regex(START_KEY_PATTERN, START_KEY_RULE).optional(),
    pageUrl: pageUrlSchema.optional(),
    pageVariables: variablesSchema.optional(),
    tools: toolsSchema.optional(),
  }),
  z.strictObject({ type: z.literal("message"), text: fields.message, clientMessageId: clientMessageId.optional() }),
  z.strictObject({ type: z.literal("page_variables"), variables: variablesSchema }),
  z.strictObject({
    type: z.literal("track"),
    event: z.string().trim().min(1, "must not be empty").max(TRACK_EVENT_MAX_CHARS, `must be at most ${TRACK_EVENT_MAX_CHARS} characters`),
    properties: z
      .record(z.string(), z.unknown())
      .refine((value) => Object.keys(value).length <= TRACK_PROPERTIES_MAX_KEYS, `must have at most ${TRACK_PROPERTIES_MAX_KEYS} keys`)
      .refine((value) => jsonBytes(value) <= TRACK_PROPERTIES_MAX_BYTES, `must be at most ${TRACK_PROPERTIES_MAX_BYTES} bytes as JSON`)
      .default({}),
  }),
  z.strictObject({ type: z.literal("tools"), tools: toolsSchema }),
  // "Was this helpful?" under an agent reply of this conversation.
  z.strictObject({ type: z.literal("feedback"), messageId: z.string().min(1, "must not be empty").max(100), helpful: z.boolean() }),
  // The visitor's rating of their resolved conversation (good, okay or bad, optional words).
  z.strictObject({ type: z.literal("rate"), ...rateConversationInput.shape }),
  // The visitor's email address for their conversation (replies while away, the transcript).
  z.strictObject({ type: z.literal("email"), ...visitorEmailInput.shape }),
  // Mail the conversation's transcript to the address given.
  z.strictObject({ type: z.literal("transcript") }),
  z
    .strictObject({
      type: z.literal("tool_result"),
      callId: z.string().min(1).max(100),
      result: z.unknown().optional(),
      error: z.string().max(1_000).optional(),
    })
    .refine((frame) => jsonBytes(frame.result ?? null) <= WIDGET_TOOL_RESULT_MAX_BYTES, {
      message: `must be at most ${WIDGET_TOOL_RESULT_MAX_BYTES} bytes as JSON`,
      path: ["result"],
    }),
  ...voiceClientFrameSchemas,
]);

export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type HelloFrame = Extract<ClientFrame, { type: "hello" }>;
export type ClientToolDefinition = z.infer<typeof clientToolSchema>;

export type ServerFrame =
  | {
      type: "ready";
      /** null until the first message creates the conversation (then `ready` is sent again). */
      conversationId: string | null;
      resumeToken: string | null;
      status: "active" | "escalated";
      /** While escalated, the team member who joined (took it over or replied): their name as visitors see it; else null. */
      person: string | null;
      /**
       * While escalated, what the visitor is told about a person: "<name> from our team has joined
       * the conversation." or "A person will reply here; usually within N minutes."; else null.
       */
      notice: string | null;
      /** On resume: the conversation's latest messages, oldest first. */
      messages: WireMessage[];
      /** The agent's widget settings (title, greeting, accent, suggestions), read at hello. */
      config?: WidgetConfig;
      /** While the conversation is resolved: the closing line and the visitor's rating so far; else null. */
      closing: WireClosing | null;
      /** Email: whether this server sends it (else the widget never asks), and the address the visitor gave. */
      email: { enabled: boolean; address: string | null };
    }
  /** Ask the visitor for an email address (on handoff, or when no person replied in time); at most once per connection. */
  | { type: "email_prompt" }
  /** The visitor's address was stored (answer to `email`), or the transcript went to it (answer to `transcript`). */
  | { type: "email"; email: string }
  | { type: "transcript"; email: string }
  /** A person resolved the conversation (the closing line; ask for a rating), or it was reopened (null). */
  | { type: "closing"; closing: WireClosing | null }
  /** The visitor's rating was stored (answer to `rate`). */
  | ({ type: "rating"; conversationId: string } & WireRating)
  /** `person`: a team member typing in the panel (their public name); absent: the agent's turn. */
  | { type: "typing"; active: boolean; person?: string }
  /** A piece of the agent's reply as the engine writes it; the `message` frame that follows is the reply. */
  | { type: "message.delta"; delta: string; clientMessageId?: string }
  | ({ type: "message"; clientMessageId?: string } & WireMessage)
  /** The visitor's message sent with this clientMessageId is stored (again: stored once, under messageId). */
  | { type: "ack"; clientMessageId: string; messageId: string }
  | { type: "tool_call"; callId: string; name: string; args: Record<string, unknown> }
  | { type: "status"; status: "active" | "escalated"; person: string | null; notice: string | null }
  | { type: "feedback"; messageId: string; helpful: boolean }
  | { type: "error"; error: string; details?: string; clientMessageId?: string; retryAfter?: number }
  | VoiceServerFrame;

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; error: string; details: string };

/**
 * Parses one text frame; a failure names every problem like the messages API (field: rule). Text
 * the database cannot store is refused first, as by the messages API (platform/text.ts).
 */
export function parseClientFrame(text: string): ParsedFrame {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: "Invalid request", details: "frame: must be JSON" };
  }
  // Text PostgreSQL cannot store (NUL, lone surrogates) would fail in the database: refused like the
  // messages API's body reader does, naming where it is.
  const unstorable = pathOfUnstorableText(data, "frame");
  if (unstorable !== null) return { ok: false, error: "Invalid request", details: `${unstorable}: ${UNSTORABLE_TEXT_RULE}` };
  const result = clientFrameSchema.safeParse(data);
  if (result.success) return { ok: true, frame: result.data };
  return { ok: false, error: "Invalid request", details: result.error.issues.map(describeIssue).join("; ") };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const prefix = field ? `${field}.` : "";
    return issue.keys.map((key) => `${prefix}${key}: is not a known field`).join("; ");
  }
  if (issue.code === "invalid_union" && field === "type") return "type: must be a known frame type";
  return `${field || "frame"}: ${issue.message}`;
}

export type { WireMessage };
