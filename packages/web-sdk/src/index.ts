// @parley/web: chat with a Parley agent from a web page over WebSocket (protocol parley.v1).
// No API key: the agent must list the page's origin in its allowed origins. Reconnects with
// backoff and resumes the same conversation (the resume token is kept in localStorage).
//
//   const chat = connect({ agentId: "demo", baseUrl: "https://parley.example.com" });
//   chat.on("message", (message) => render(message));
//   chat.send("How do I reset my password?");
//   await chat.voice.start();   // voice mode: the microphone, the spoken replies (see voice.ts)

import { newClientMessageId, newStartKey, OUTBOX_FULL_DETAILS, OUTBOX_FULL_ERROR, Outbox } from "./outbox.ts";
import {
  type ClientFrame,
  type Closing,
  type ConversationStatus,
  type ErrorFrame,
  FATAL_CLOSE_CODES,
  type Message,
  type Rating,
  type RatingValue,
  type ReadyFrame,
  type ServerFrame,
  SUBPROTOCOL,
  type ToolDefinition,
  type Visitor,
} from "./protocol.ts";
import { DEFAULT_RECONNECT_SCHEDULE, GOING_AWAY_CLOSE_CODE, reconnectDelay } from "./reconnect.ts";
import { type ParleyVoice, Voice, type VoiceEvents } from "./voice.ts";

export { OUTBOX_FULL_DETAILS, OUTBOX_FULL_ERROR, OUTBOX_MAX_MESSAGES, type PendingMessage } from "./outbox.ts";
export type * from "./protocol.ts";
export { FATAL_CLOSE_CODES, SUBPROTOCOL } from "./protocol.ts";
export {
  GOING_AWAY_CLOSE_CODE,
  GOING_AWAY_MAX_DELAY_MS,
  RECONNECT_INITIAL_DELAY_MS,
  RECONNECT_MAX_DELAY_MS,
  type ReconnectSchedule,
  reconnectDelay,
} from "./reconnect.ts";
export {
  type ParleyVoice,
  VoiceError,
  type VoiceErrorCode,
  type VoiceEvents,
  type VoiceOpenOptions,
  type VoiceStartOptions,
} from "./voice.ts";

/** What the SDK needs of `localStorage`. */
export interface ResumeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The browser's WebSocket constructor (or a compatible one, e.g. `ws` in Node). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocket;

export interface ConnectOptions {
  agentId: string;
  /** Where Parley runs, e.g. "https://parley.example.com" (its /ws endpoint is used). */
  baseUrl: string;
  visitor?: Visitor;
  pageVariables?: Record<string, string>;
  /** The page address to show the team (a new conversation keeps the first); omit to send none. */
  pageUrl?: string;
  /** Where the resume token is kept; default `localStorage` (null: nowhere, no resume after reload). */
  storage?: ResumeStorage | null;
  WebSocket?: WebSocketConstructor;
  /** Reconnect backoff: first delay and the cap, in ms (default 1000 and 30000; see reconnect.ts). */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
}

export type ConnectionState = "connecting" | "open" | "closed";

/** Events and their payloads. */
/** A piece of an agent reply while it is written (LLM agents): `text` is the reply so far. */
export interface MessageDelta {
  delta: string;
  text: string;
  clientMessageId?: string;
}

export interface ParleyEvents extends VoiceEvents {
  message: Message;
  /** The visitor's message of `send()` is stored (as `messageId`): it will not be sent again. */
  ack: { clientMessageId: string; messageId: string };
  /** The reply so far, as it streams; the `message` event that follows is the reply itself. */
  delta: MessageDelta;
  status: ConversationStatus;
  /** The person of the team who joined (took over or replied; their name), or null while none has. */
  person: string | null;
  typing: boolean;
  /** A team member is typing (their name); sent again every few seconds while they type. */
  personTyping: string;
  error: ErrorFrame;
  ready: ReadyFrame;
  /** A "Was this helpful?" answer was stored. */
  feedback: { messageId: string; helpful: boolean };
  /** A person resolved the conversation (show the closing line, ask for a rating), or it was reopened (null). */
  closing: Closing | null;
  /** The visitor's rating was stored. */
  rating: Rating;
  /** Ask the visitor for an email address (the server sends email and none was given). */
  emailPrompt: undefined;
  /** The visitor's address was stored. */
  email: string;
  /** The transcript was mailed to this address. */
  transcript: string;
  /**
   * The socket's state; `closed` with a fatal code (origin, agent) is final. After any other close
   * it is `connecting` with the close's `code` and `reason` and `retryInMs`, the wait before the
   * next try; then `connecting` without a code when that try starts.
   */
  connection: { state: ConnectionState; code?: number; reason?: string; retryInMs?: number };
}

export type ToolHandler = (args: Record<string, unknown>) => unknown | Promise<unknown>;

export interface ParleyConnection {
  readonly agentId: string;
  readonly conversationId: string | null;
  readonly status: ConversationStatus;
  /** The team member who joined (took over or replied), or null while none has. */
  readonly person: string | null;
  /**
   * While escalated, what to tell the visitor about a person (who joined, or how soon one usually
   * replies), as the server words it; null while the agent answers. Set before `person` and
   * `status` are emitted.
   */
  readonly notice: string | null;
  /** While the conversation is resolved: the closing line and the visitor's rating so far; else null. */
  readonly closing: Closing | null;
  readonly state: ConnectionState;
  /** Voice mode: chat.voice.start() in a browser, or open()/sendAudio() with your own audio. */
  readonly voice: ParleyVoice;
  /**
   * Sends a message; returns its clientMessageId. It is kept until the server acknowledges it
   * (`ack` event) and sent again after a reconnect; at most OUTBOX_MAX_MESSAGES wait at once
   * (beyond: an `error` event with OUTBOX_FULL_ERROR and this id, and nothing is sent).
   */
  send(text: string): string;
  /** Messages sent and not yet acknowledged (sent again after a reconnect), oldest first. */
  readonly pendingMessages: number;
  /** Whether send() would take a message now: false while OUTBOX_MAX_MESSAGES wait for their ack. */
  readonly canSend: boolean;
  on<E extends keyof ParleyEvents>(event: E, listener: (payload: ParleyEvents[E]) => void): () => void;
  /** Merged into the conversation's page variables (string values). */
  setPageVariables(variables: Record<string, string>): void;
  track(event: string, properties?: Record<string, unknown>): void;
  /** "Was this helpful?" on an agent reply (its message id); a "no" tells the team what was not answered. */
  feedback(messageId: string, helpful: boolean): void;
  /**
   * Rates the resolved conversation (good, okay or bad, optional words); rating again within the
   * window of `closing.rating.changeableUntil` replaces it. Answered by a `rating` event, or an `error`.
   */
  rate(rating: RatingValue, comment?: string): void;
  /**
   * The visitor's email address for this conversation: replies written while they are away are
   * mailed to it with a link back. Answered by an `email` event, or an `error`.
   */
  setEmail(email: string): void;
  /** Mails the transcript to the address given; answered by a `transcript` event, or an `error`. */
  mailTranscript(): void;
  /** A tool the agent may call in this page; returns a function that unregisters it. */
  registerTool(definition: ToolDefinition, handler: ToolHandler): () => void;
  /** While waiting to reconnect after a close: tries again now (a "Try now" button); else nothing. */
  reconnectNow(): void;
  /** Closes for good (no reconnect). */
  close(): void;
}

export function connect(options: ConnectOptions): ParleyConnection {
  return new Connection(options);
}

/** `https://x` -> `wss://x/ws`. */
export function socketUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/ws`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

type AnyListener = (payload: never) => void;

class Connection implements ParleyConnection {
  readonly agentId: string;
  conversationId: string | null = null;
  status: ConversationStatus = "active";
  person: string | null = null;
  notice: string | null = null;
  closing: Closing | null = null;
  state: ConnectionState = "connecting";
  private socket: WebSocket | null = null;
  private readonly listeners = new Map<keyof ParleyEvents, Set<AnyListener>>();
  /** Replies being streamed, by the clientMessageId they answer ("" for none). */
  private readonly partialReplies = new Map<string, string>();
  private readonly tools = new Map<string, { definition: ToolDefinition; handler: ToolHandler }>();
  private pageVariables: Record<string, string>;
  /** Frames other than messages sent before `ready` (or while reconnecting), flushed in order. */
  private outbox: ClientFrame[] = [];
  /** The visitor's messages until acknowledged: written at once when ready, and again after each reconnect. */
  private readonly messages = new Outbox();
  /** Sent in every hello: the server joins a first message sent again to the conversation it started (outbox.ts). */
  private readonly startKey = newStartKey();
  private isReady = false;
  private stopped = false;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly storage: ResumeStorage | null;
  private readonly storageKey: string;
  readonly voice: Voice;

  constructor(private readonly options: ConnectOptions) {
    this.agentId = options.agentId;
    this.voice = new Voice({
      post: (frame) => this.post(frame),
      sendBinary: (data) => {
        if (!this.isReady || this.socket?.readyState !== 1) return false;
        this.socket.send(data);
        return true;
      },
      emit: (event, payload) => this.emit(event, payload as ParleyEvents[typeof event]),
    });
    this.pageVariables = { ...options.pageVariables };
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.storageKey = `parley:${options.agentId}:resume`;
    this.open();
  }

  get pendingMessages(): number {
    return this.messages.size;
  }

  get canSend(): boolean {
    return !this.messages.full;
  }

  send(text: string): string {
    if (this.messages.full) return this.refuseMessage();
    const { clientMessageId } = this.messages.add(text);
    if (this.isReady && this.socket) this.write({ type: "message", text, clientMessageId });
    return clientMessageId;
  }

  /** The outbox is full: said like the server's refusals, under an id of its own that nothing else names. */
  private refuseMessage(): string {
    const clientMessageId = newClientMessageId();
    this.emit("error", { type: "error", error: OUTBOX_FULL_ERROR, details: OUTBOX_FULL_DETAILS, clientMessageId });
    return clientMessageId;
  }

  feedback(messageId: string, helpful: boolean): void {
    this.post({ type: "feedback", messageId, helpful });
  }

  rate(rating: RatingValue, comment?: string): void {
    if (!this.conversationId) return;
    const words = comment?.trim();
    this.post({ type: "rate", conversationId: this.conversationId, rating, ...(words ? { comment: words } : {}) });
  }

  setEmail(email: string): void {
    this.post({ type: "email", email: email.trim() });
  }

  mailTranscript(): void {
    this.post({ type: "transcript" });
  }

  on<E extends keyof ParleyEvents>(event: E, listener: (payload: ParleyEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  setPageVariables(variables: Record<string, string>): void {
    Object.assign(this.pageVariables, variables);
    this.post({ type: "page_variables", variables });
  }

  track(event: string, properties: Record<string, unknown> = {}): void {
    this.post({ type: "track", event, properties });
  }

  registerTool(definition: ToolDefinition, handler: ToolHandler): () => void {
    this.tools.set(definition.name, { definition, handler });
    this.post({ type: "tools", tools: this.toolDefinitions() });
    return () => {
      if (this.tools.get(definition.name)?.handler !== handler) return;
      this.tools.delete(definition.name);
      this.post({ type: "tools", tools: this.toolDefinitions() });
    };
  }

  reconnectNow(): void {
    if (this.stopped || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, "Closed by the page");
    this.voice.disconnected();
    this.setState("closed");
  }

  private open(): void {
    if (this.stopped) return;
    this.setState("connecting");
    const Socket = this.options.WebSocket ?? globalThis.WebSocket;
    const socket = new Socket(socketUrl(this.options.baseUrl), SUBPROTOCOL);
    // Voice replies' audio comes in binary frames.
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.isReady = false;
    socket.addEventListener("open", () => {
      const resumeToken = this.storage?.getItem(this.storageKey) ?? undefined;
      this.write({
        type: "hello",
        agentId: this.agentId,
        ...(this.options.visitor ? { visitor: this.options.visitor } : {}),
        ...(resumeToken ? { resumeToken } : {}),
        ...(this.startKey ? { startKey: this.startKey } : {}),
        ...(this.options.pageUrl ? { pageUrl: this.options.pageUrl } : {}),
        ...(Object.keys(this.pageVariables).length > 0 ? { pageVariables: this.pageVariables } : {}),
        ...(this.tools.size > 0 ? { tools: this.toolDefinitions() } : {}),
      });
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        this.voice.receiveAudio(event.data);
        return;
      }
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return;
      }
      this.receive(frame);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.isReady = false;
      this.voice.disconnected();
      if (this.stopped) return;
      if (FATAL_CLOSE_CODES.has(event.code)) {
        this.stopped = true;
        this.setState("closed", event.code, event.reason);
        return;
      }
      this.scheduleReconnect(event.code, event.reason);
    });
  }

  private setPerson(person: string | null): void {
    if (person === this.person) return;
    this.person = person;
    this.emit("person", person);
  }

  /** The next try after a close: soon after 1001 (the server going away), else backing off (reconnect.ts). */
  private scheduleReconnect(code: number, reason: string): void {
    const delay = reconnectDelay(this.attempts, code, {
      initialDelayMs: this.options.reconnect?.initialDelayMs ?? DEFAULT_RECONNECT_SCHEDULE.initialDelayMs,
      maxDelayMs: this.options.reconnect?.maxDelayMs ?? DEFAULT_RECONNECT_SCHEDULE.maxDelayMs,
    });
    // A restart's next try that finds no server backs off from the start.
    if (code !== GOING_AWAY_CLOSE_CODE) this.attempts += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
    this.setState("connecting", code, reason, delay);
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      case "ready": {
        this.conversationId = frame.conversationId;
        this.status = frame.status;
        if (frame.resumeToken) this.storage?.setItem(this.storageKey, frame.resumeToken);
        if (!this.isReady) {
          this.isReady = true;
          this.attempts = 0;
          this.setState("open");
          // Unacknowledged messages first, in order: each may have died with the last socket.
          for (const { clientMessageId, text } of this.messages.messages()) this.write({ type: "message", text, clientMessageId });
          const pending = this.outbox;
          this.outbox = [];
          for (const queued of pending) this.write(queued);
        }
        this.notice = frame.notice ?? null;
        this.closing = frame.closing ?? null;
        this.emit("ready", frame);
        this.setPerson(frame.person ?? null);
        return;
      }
      case "typing":
        if (frame.person) this.emit("personTyping", frame.person);
        else this.emit("typing", frame.active);
        return;
      case "message.delta": {
        const key = frame.clientMessageId ?? "";
        const text = (this.partialReplies.get(key) ?? "") + frame.delta;
        this.partialReplies.set(key, text);
        this.emit("delta", {
          delta: frame.delta,
          text,
          ...(frame.clientMessageId === undefined ? {} : { clientMessageId: frame.clientMessageId }),
        });
        return;
      }
      case "ack":
        this.messages.settle(frame.clientMessageId);
        this.emit("ack", { clientMessageId: frame.clientMessageId, messageId: frame.messageId });
        return;
      case "message": {
        // The reply is stored with the message it answers (a server without acks answers so too).
        this.messages.settle(frame.clientMessageId);
        this.partialReplies.delete(frame.clientMessageId ?? "");
        const { type: _type, ...message } = frame;
        this.emit("message", message);
        return;
      }
      case "status":
        this.status = frame.status;
        this.notice = frame.notice ?? null;
        // Who answers first, so a status listener knows whether a named person has joined.
        this.setPerson(frame.person ?? null);
        this.emit("status", frame.status);
        return;
      case "feedback":
        this.emit("feedback", { messageId: frame.messageId, helpful: frame.helpful });
        return;
      case "closing":
        this.closing = frame.closing;
        this.emit("closing", frame.closing);
        return;
      case "rating": {
        const { type: _type, conversationId: _conversation, ...rating } = frame;
        if (this.closing) this.closing = { ...this.closing, rating };
        this.emit("rating", rating);
        return;
      }
      case "email_prompt":
        this.emit("emailPrompt", undefined);
        return;
      case "email":
        this.emit("email", frame.email);
        return;
      case "transcript":
        this.emit("transcript", frame.email);
        return;
      case "tool_call":
        void this.runTool(frame.callId, frame.name, frame.args);
        return;
      case "error":
        this.voice.receiveError(frame);
        // Refused (invalid, a quota, a limit): sending it again would be refused again.
        this.messages.settle(frame.clientMessageId);
        this.partialReplies.delete(frame.clientMessageId ?? "");
        // A refused resume token: forget it (a new conversation starts).
        if (frame.error === "Invalid resume token") this.storage?.removeItem(this.storageKey);
        this.emit("error", frame);
        return;
      default:
        this.voice.receive(frame);
    }
  }

  private async runTool(callId: string, name: string, args: Record<string, unknown>): Promise<void> {
    const tool = this.tools.get(name);
    if (!tool) {
      this.post({ type: "tool_result", callId, error: `Unknown tool ${name}` });
      return;
    }
    try {
      const result = await tool.handler(args);
      this.post({ type: "tool_result", callId, result: result === undefined ? null : result });
    } catch (error) {
      this.post({ type: "tool_result", callId, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private toolDefinitions(): ToolDefinition[] {
    return [...this.tools.values()].map(({ definition }) => definition);
  }

  private post(frame: ClientFrame): void {
    // Tools and page variables also travel in the next hello; sending them again is harmless.
    if (this.isReady && this.socket) this.write(frame);
    else this.outbox.push(frame);
  }

  private write(frame: ClientFrame): void {
    this.socket?.send(JSON.stringify(frame));
  }

  private setState(state: ConnectionState, code?: number, reason?: string, retryInMs?: number): void {
    this.state = state;
    this.emit("connection", {
      state,
      ...(code === undefined ? {} : { code }),
      ...(reason ? { reason } : {}),
      ...(retryInMs === undefined ? {} : { retryInMs }),
    });
  }

  private emit<E extends keyof ParleyEvents>(event: E, payload: ParleyEvents[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (payload: ParleyEvents[E]) => void)(payload);
      } catch (error) {
        console.error("parley: listener failed", error);
      }
    }
  }
}

function defaultStorage(): ResumeStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage blocked (e.g. third-party iframes)
  }
}
