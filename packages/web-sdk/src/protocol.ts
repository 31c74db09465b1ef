// The wire format of protocol `parley.v1` as the browser sees it (the server's definition is in
// packages/core/src/widget/protocol.ts; docs/integrators/widget-and-sdk.md documents both).

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
  /** Spoken (voice mode): the visitor's transcript, or a reply read aloud. Absent: typed. */
  voice?: true;
  /** A spoken reply the visitor cut short: `text` is what was played. */
  interrupted?: true;
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
      /**
       * This page's secret (32 to 128 letters, digits, _ or -): a first message sent again under
       * its clientMessageId with the same key, after the socket died before `ready`, joins the
       * conversation it started instead of starting another.
       */
      startKey?: string;
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
  | { type: "feedback"; messageId: string; helpful: boolean }
  /** The visitor's rating of their resolved conversation; `comment` at most 1,000 characters. */
  | { type: "rate"; conversationId: string; rating: RatingValue; comment?: string }
  /** The visitor's email address for this conversation (replies while away, the transcript); at most 254 characters. */
  | { type: "email"; email: string }
  /** Mail the conversation's transcript to the address given. */
  | { type: "transcript" }
  | VoiceClientFrame;

/** Sample rates voice audio may have, both ways (PCM16 mono). */
export type VoiceSampleRate = 16000 | 24000 | 48000;

export interface VoiceAudioFormat {
  encoding: "pcm16";
  sampleRate: VoiceSampleRate;
}

/**
 * Voice (docs/integrators/voice.md): after voice.start the page sends binary frames of raw PCM16LE mono
 * audio at the input rate, 20 to 100 ms each (or voice.append with base64 audio).
 */
export type VoiceClientFrame =
  | {
      type: "voice.start";
      input: VoiceAudioFormat;
      output: VoiceAudioFormat;
      /** server_vad (default): the server hears the end of a turn; push_to_talk: voice.commit ends it. */
      turnDetection?: "server_vad" | "push_to_talk";
      /** A language tag such as "en" or "en-US". */
      language?: string;
    }
  /** Base64 of at most 100 ms of PCM16LE audio, for clients that cannot send binary frames. */
  | { type: "voice.append"; audio: string }
  /** push_to_talk: the end of the visitor's turn. */
  | { type: "voice.commit" }
  /** The page stopped the reply's playback (or was told it was cut): which reply, how much of it it played. */
  | { type: "voice.interrupt"; responseId?: string; playedMs?: number }
  | { type: "voice.stop" };

/** stopped: voice ended (voice.stop, a limit, the agent's voice turned off); text chat goes on. */
export type VoiceState = "listening" | "thinking" | "speaking" | "stopped";

export interface VoiceTranscript {
  /** user: what the visitor said (their message once final); agent: what was spoken of the reply. */
  role: "user" | "agent";
  text: string;
  final: boolean;
  messageId?: string;
}

export type VoiceServerFrame =
  | { type: "voice.state"; state: VoiceState }
  | { type: "voice.speech_started" }
  | { type: "voice.speech_stopped" }
  | ({ type: "voice.transcript" } & VoiceTranscript)
  /** Binary frames of the reply's PCM16LE audio follow, until voice.audio.end. */
  | { type: "voice.audio.start"; responseId: string; format: VoiceAudioFormat }
  /** interrupted: the visitor spoke over it (or the page sent voice.interrupt); playing stops. */
  | { type: "voice.audio.end"; responseId: string; interrupted: boolean };

export interface ReadyFrame {
  type: "ready";
  conversationId: string | null;
  resumeToken: string | null;
  status: ConversationStatus;
  /** While escalated, the person of the team who joined (took it over or replied): their name; else null. */
  person?: string | null;
  /**
   * While escalated, what the visitor is told about a person: "<name> from our team has joined the
   * conversation." or "A person will reply here; usually within N minutes."; else null.
   */
  notice?: string | null;
  messages: Message[];
  /** The agent's widget settings from the panel. */
  config?: WidgetConfig;
  /** While the conversation is resolved: the closing line and the visitor's rating so far; else null. */
  closing?: Closing | null;
  /** Whether this server sends email (else never ask for an address), and the address given for this conversation. */
  email?: { enabled: boolean; address: string | null };
}

export type RatingValue = "good" | "okay" | "bad";

/** The visitor's rating of the conversation's latest resolution. */
export interface Rating {
  rating: RatingValue;
  comment: string | null;
  /** When they first rated it (ISO 8601). */
  ratedAt: string;
  /** Until when rating again replaces it (ISO 8601); after that it stands. */
  changeableUntil: string;
}

/** A person resolved the conversation: what to tell the visitor, and their rating so far (null: ask for one). */
export interface Closing {
  notice: string;
  rating: Rating | null;
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
  /** Voice mode is offered (the agent has voice on and the server can recognise speech). */
  voice?: boolean;
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
  /** The visitor's message sent with this clientMessageId is stored, as `messageId` (sent again: acknowledged again, stored once). */
  | { type: "ack"; clientMessageId: string; messageId: string }
  | { type: "tool_call"; callId: string; name: string; args: Record<string, unknown> }
  | { type: "status"; status: ConversationStatus; person?: string | null; notice?: string | null }
  /** The visitor's "Was this helpful?" answer was stored. */
  | { type: "feedback"; messageId: string; helpful: boolean }
  /** A person resolved the conversation (ask for a rating), or it was reopened (null). */
  | { type: "closing"; closing: Closing | null }
  /** The visitor's rating was stored. */
  | ({ type: "rating"; conversationId: string } & Rating)
  /** Ask the visitor for an email address (on handoff, or when no person replied in time). */
  | { type: "email_prompt" }
  /** The address was stored (answer to `email`), or the transcript went to it (answer to `transcript`). */
  | { type: "email"; email: string }
  | { type: "transcript"; email: string }
  | ErrorFrame
  | VoiceServerFrame;

export const SUBPROTOCOL = "parley.v1";

/** Close codes after which reconnecting cannot help. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4403, 4404, 4426]);
