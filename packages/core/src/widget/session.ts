// One widget / SDK connection (protocol `parley.v1`), independent of the WebSocket library: the
// adapter hands over text frames and the close, and gets frames to send and a close to perform.
// Authorised by agentId + allowed origin, never by a key. Messages go through the same turn as
// the HTTP API (runTurn, channel "widget": quotas, persistence, webhooks), after the widget's own
// limits (limits.ts and widget-limits.ts here): never the HTTP API's per-agent rate limit.
import { randomUUID } from "node:crypto";
import type { Prisma } from "@parley/db";
import { type MessagingAgent, messagingAgentSelect } from "../agents/keys/message-auth.ts";
import { visitorNotice } from "../conversations/handoff.ts";
import { CLIENT_VARIABLES_MAX_KEYS, VISITOR_EMAIL_PROMPT_AFTER_MS } from "../conversations/limits.ts";
import type { LiveEvent } from "../conversations/live.ts";
import { closingOf, rateConversation } from "../conversations/rating.ts";
import {
  findClientMessage,
  findStartedConversation,
  firstMessageKeyHash,
  isClientMessageConflict,
  isFirstMessageConflict,
  type StoredClientMessage,
} from "../conversations/turn/client-message.ts";
import type { Visitor } from "../conversations/turn/message-schema.ts";
import { runTurn, type StoredTurnIds } from "../conversations/turn/turn.ts";
import { emailEnabled, mailTranscript, markVisitorPresence, setVisitorEmail } from "../conversations/visitor-email.ts";
import { toWireMessage, type WireClosing } from "../conversations/wire-message.ts";
import type { ClientTool } from "../engine/types.ts";
import { voteOnAnswer } from "../help/feedback.ts";
import { publicName } from "../people/team.ts";
import { AppError, isAppError } from "../platform/errors.ts";
import { describeError, logger } from "../platform/logger.ts";
import { renderMessageHtml } from "../platform/markdown.ts";
import { type WireStatus, wireStatus } from "../platform/wire-status.ts";
import type { VoiceContext } from "../voice/context.ts";
import { VOICE_AUDIO_ERROR_INTERVAL_MS, VOICE_START_BUFFER_FRAMES } from "../voice/limits.ts";
import { VOICE_ERRORS } from "../voice/protocol.ts";
import { type VoiceAgent, type VoiceHost, VoiceSession, voiceAgentSelect } from "../voice/session.ts";
import { type WidgetConfig, widgetConfig } from "./config.ts";
import {
  acquireConnectionSlot,
  acquireVoiceSlot,
  enforceWidgetMessageLimits,
  releaseConnectionSlot,
  releaseVoiceSlot,
  renewConnectionSlot,
  renewVoiceSlot,
  type WidgetClient,
  type WidgetLimitSettings,
} from "./limits.ts";
import {
  CLOSE_CODES,
  type ClientFrame,
  type ClientToolDefinition,
  type CloseReason,
  type HelloFrame,
  parseClientFrame,
  type ServerFrame,
  type WireMessage,
} from "./protocol.ts";
import type { ResumeTokens } from "./resume.ts";
import { recordWidgetSite } from "./site-seen.ts";
import {
  TRACK_EVENTS_PER_MINUTE,
  WIDGET_CONNECTION_SLOT_RENEW_MS,
  WIDGET_HELLO_TIMEOUT_MS,
  WIDGET_RESUME_MESSAGES,
  WIDGET_TOOL_TIMEOUT_MS,
} from "./widget-limits.ts";

/** What the session needs from the socket. */
export interface WidgetTransport {
  send(frame: ServerFrame): void;
  /** A binary frame (reply audio of a voice session). */
  sendBinary(bytes: Uint8Array): void;
  close(code: number, reason: string): void;
}

export interface WidgetSessionOptions {
  ctx: VoiceContext;
  tokens: ResumeTokens;
  /** The `Origin` request header (null when absent: never allowed). */
  origin: string | null;
  /** The client's IP (core's clientIp), for the widget's per-IP limits. */
  clientIp: string;
  helloTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** Tests: a shorter wait than VISITOR_EMAIL_PROMPT_AFTER_MS before asking for an email. */
  emailPromptAfterMs?: number;
  /** Tests: a shorter longest utterance than the protocol's 30 s. */
  voiceUtteranceMaxMs?: number;
  /** Tests: fewer voice sessions per instance than VOICE_SESSIONS_PER_INSTANCE. */
  voiceSessionsPerInstance?: number;
}

interface WidgetAgent extends MessagingAgent, WidgetLimitSettings, VoiceAgent {
  active: boolean;
  allowedOrigins: string[];
  branding: unknown;
  widgetSiteSeenAt: Date | null;
}

const agentSelect = {
  ...messagingAgentSelect,
  widgetConnectionsPerIp: true,
  widgetMessagesPerConnectionPerMinute: true,
  widgetMessagesPerIpPerMinute: true,
  widgetConversationsPerIpPerHour: true,
  active: true,
  allowedOrigins: true,
  branding: true,
  widgetSiteSeenAt: true,
  ...voiceAgentSelect,
} as const;

const wireMessageSelect = {
  id: true,
  role: true,
  text: true,
  richContent: true,
  toolCalls: true,
  createdAt: true,
  voice: true,
  interrupted: true,
} as const;

type PendingToolCall = { resolve: (value: unknown) => void; timer: NodeJS.Timeout };

/** Tracking events of a connection without a conversation yet, attached when it gets one. */
const UNATTACHED_TRACKING_MAX = 100;

export class WidgetSession {
  private readonly ctx: VoiceContext;
  private readonly options: WidgetSessionOptions;
  private agent: WidgetAgent | null = null;
  /** The agent's widget settings as read at hello (sent with every `ready`). */
  private config: WidgetConfig | null = null;
  private conversationId: string | null = null;
  private status: WireStatus = "active";
  /** The team member who joined (public name: took it over or replied) while escalated; else null. */
  private person: string | null = null;
  /** What the visitor is told about a person (handoff.ts) while escalated; null: the agent answers. */
  private notice: string | null = null;
  /** While the conversation is resolved: the closing line and the visitor's rating; null otherwise. */
  private closing: WireClosing | null = null;
  private visitor: Visitor | undefined;
  /** Page variables not yet stored (before the conversation exists). */
  private pendingVariables: Record<string, string> = {};
  private tools: ClientToolDefinition[] = [];
  /** The page the widget was opened on (hello), stored with a new conversation. */
  private pageUrl: string | undefined;
  /** The page's secret (hello) that lets its first message, sent again, join the conversation it started. */
  private startKey: string | undefined;
  private readonly pendingCalls = new Map<string, PendingToolCall>();
  private unattachedTracking: string[] = [];
  private trackWindow = { start: 0, count: 0 };
  /** The address the visitor gave for this conversation (visitor-email.ts); null: none yet. */
  private visitorEmail: string | null = null;
  /** Whether the email prompt was sent on this connection, and the timer that sends it when no person replies. */
  private emailPrompted = false;
  private emailPromptTimer: NodeJS.Timeout | null = null;
  /** Renews visitorPresentUntil while this socket holds the conversation (away: replies are mailed). */
  private presenceTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private queue: Promise<void> = Promise.resolve();
  private helloTimer: NodeJS.Timeout | null;
  private isClosed = false;
  /** This connection, for its own message limit and its connection slot. */
  private readonly connectionId = randomUUID();
  /** The IP's connection slot this connection holds, and the timer that renews it. */
  private slot: { client: WidgetClient; renewal: NodeJS.Timeout } | null = null;
  /** The voice session while voice is on (voice.start to voice.stop), and its slot among the IP's voice sessions. */
  private voice: VoiceSession | null = null;
  private voiceSlot: { client: WidgetClient; renewal: NodeJS.Timeout } | null = null;
  /**
   * A hello or a voice.start waiting its turn: voice frames that come meanwhile (a page may send
   * audio right after them) are handled after it, in order, audio up to VOICE_START_BUFFER_FRAMES.
   */
  private helloPending = false;
  private voiceStartPending = false;
  private deferredAudioFrames = 0;
  private notStartedSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly transport: WidgetTransport,
    options: WidgetSessionOptions,
  ) {
    this.ctx = options.ctx;
    this.options = options;
    this.helloTimer = setTimeout(() => this.close("HELLO_TIMEOUT"), options.helloTimeoutMs ?? WIDGET_HELLO_TIMEOUT_MS);
    this.helloTimer.unref?.();
  }

  /** One text frame from the page. */
  receive(text: string): void {
    if (this.isClosed) return;
    const parsed = parseClientFrame(text);
    if (!parsed.ok) {
      if (!this.agent) {
        this.send({ type: "error", error: parsed.error, details: parsed.details });
        this.close("PROTOCOL_ERROR");
      } else {
        // In turn with the frames before it: the page learns of a bad frame after what it sent
        // earlier has been handled (a tracking event before it is stored by then).
        const error = { type: "error" as const, error: parsed.error, details: parsed.details, ...clientMessageIdOf(text) };
        this.queue = this.queue.then(() => this.send(error));
      }
      return;
    }
    const { frame } = parsed;
    // Tool results answer a turn that is running (and holding the queue): handled at once.
    if (frame.type === "tool_result") {
      this.resolveToolCall(frame);
      return;
    }
    // Audio and barge-in cannot wait behind a running turn either (unless voice is still starting).
    if (frame.type === "voice.append" || frame.type === "voice.commit" || frame.type === "voice.interrupt" || frame.type === "voice.stop") {
      if (!this.deferUntilReady(() => this.voiceFrame(frame), frame.type === "voice.append")) this.voiceFrame(frame);
      return;
    }
    if (frame.type === "hello") this.helloPending = true;
    if (frame.type === "voice.start" && !this.voice) this.voiceStartPending = true;
    this.queue = this.queue.then(() => this.handle(frame)).catch((error: unknown) => this.fail(error));
  }

  /** One binary frame from the page: voice audio (PCM16LE mono at the rate of voice.start). */
  receiveAudio(bytes: Uint8Array): void {
    if (this.isClosed) return;
    if (this.deferUntilReady(() => this.receiveAudio(bytes), true)) return;
    this.activeVoice()?.audio(bytes);
  }

  /** The voice session a voice frame is for; null once the page is told why there is none. */
  private activeVoice(): VoiceSession | null {
    if (!this.agent) {
      this.send({ type: "error", error: "Invalid request", details: "type: send hello first" });
      this.close("PROTOCOL_ERROR");
      return null;
    }
    if (!this.voice) this.voiceNotStarted();
    return this.voice;
  }

  /** Audio or a voice frame without voice started: said at most once a second (a bad client gets no flood back). */
  private voiceNotStarted(): void {
    const now = Date.now();
    if (now - this.notStartedSentAt < VOICE_AUDIO_ERROR_INTERVAL_MS) return;
    this.notStartedSentAt = now;
    this.send({ type: "error", ...VOICE_ERRORS.notStarted });
  }

  /**
   * While a hello or a voice.start is pending, a voice frame waits for it (true). Audio beyond the
   * buffer is dropped; control frames (commit, interrupt, stop) always wait.
   */
  private deferUntilReady(handle: () => void, isAudio: boolean): boolean {
    const waiting = !this.voice && (this.voiceStartPending || (this.helloPending && !this.agent));
    if (!waiting) return false;
    if (isAudio && this.deferredAudioFrames >= VOICE_START_BUFFER_FRAMES) return true;
    if (isAudio) this.deferredAudioFrames++;
    this.queue = this.queue.then(handle).catch((error: unknown) => this.fail(error));
    return true;
  }

  /**
   * Resolves once every frame received so far has been handled: a running turn has sent its reply
   * (or its error). A stopping server waits on this before it closes the socket.
   */
  async settled(): Promise<void> {
    for (;;) {
      const current = this.queue;
      await current.catch(() => undefined);
      if (current === this.queue) return;
    }
  }

  /** The socket closed (either side): forget subscriptions, fail pending tool calls. */
  closed(): void {
    this.isClosed = true;
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.releaseSlot();
    this.leaveConversation();
    void this.stopVoice();
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const [callId, pending] of this.pendingCalls) {
      clearTimeout(pending.timer);
      pending.resolve({ error: "The visitor's page was closed" });
      this.pendingCalls.delete(callId);
    }
  }

  private async handle(
    frame: Exclude<ClientFrame, { type: "tool_result" | "voice.append" | "voice.commit" | "voice.interrupt" | "voice.stop" }>,
  ): Promise<void> {
    if (this.isClosed) return;
    if (frame.type === "hello") return this.hello(frame);
    if (!this.agent) {
      this.send({ type: "error", error: "Invalid request", details: "type: send hello first" });
      return this.close("PROTOCOL_ERROR");
    }
    switch (frame.type) {
      case "message":
        return void (await this.message(frame.text, frame.clientMessageId));
      case "voice.start":
        return this.startVoice(frame);
      case "page_variables":
        return this.pageVariables(frame.variables);
      case "track":
        return this.track(frame.event, frame.properties);
      case "tools":
        this.tools = frame.tools;
        return;
      case "feedback":
        return this.feedback(frame.messageId, frame.helpful);
      case "rate":
        return this.rate(frame);
      case "email":
        return this.giveEmail(frame.email);
      case "transcript":
        return this.transcript();
    }
  }

  private async hello(frame: HelloFrame): Promise<void> {
    if (this.agent) {
      this.send({ type: "error", error: "Invalid request", details: "type: hello was already sent" });
      return this.close("PROTOCOL_ERROR");
    }
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = null;
    const agent = await this.loadAgent(frame.agentId);
    if (!agent) return;
    if (!(await this.takeSlot(agent))) return;
    this.agent = agent;
    // loadAgent checked the origin: it is allowed, so not null.
    if (this.options.origin) {
      await recordWidgetSite(this.ctx.db, agent, this.options.origin, this.ctx.appUrl, this.ctx.now()).catch((error: unknown) =>
        logger.warn("widget site", { error: describeError(error) }),
      );
    }
    this.config = await widgetConfig(this.ctx, agent.id, agent.branding, { voice: agent.voiceEnabled && Boolean(this.ctx.speech?.stt) });
    this.visitor = frame.visitor;
    this.tools = frame.tools ?? [];
    this.pageUrl = frame.pageUrl;
    this.startKey = frame.startKey;
    this.visitorEmail = frame.visitor?.email ?? null;

    let messages: WireMessage[] = [];
    if (frame.resumeToken) {
      const claims = this.options.tokens.verify(frame.resumeToken, this.ctx.now());
      if (claims && claims.agentId === agent.id && (await this.hold(agent, claims.conversationId))) {
        messages = await this.recentMessages(claims.conversationId);
      } else {
        this.send({ type: "error", error: "Invalid resume token", details: "The token is invalid or expired; a new conversation starts." });
      }
    }
    if (frame.pageVariables) await this.pageVariables(frame.pageVariables);
    logger.info("widget connected", { agentId: agent.id, resumed: this.conversationId !== null });
    this.sendReady(messages);
  }

  /**
   * One visitor message (typed, or spoken: `voice`) as a turn; resolves with the stored reply, or
   * null when it was refused or failed (an error frame was sent).
   */
  private async message(
    text: string,
    clientMessageId: string | undefined,
    voice?: { stop: AbortSignal; onDelta: (delta: string) => void },
  ): Promise<{ messageId: string; reply: string } | null> {
    const ref = clientMessageId === undefined ? {} : { clientMessageId };
    // Read again on every turn: limits, deactivation and origins changed in the panel apply at once.
    const agent = await this.loadAgent(this.agent?.id ?? "");
    if (!agent) return null;
    this.agent = agent;
    // A first message sent again after its socket died before `ready`: this connection joins the
    // conversation it started (only with the key of the page that started it), before any limit counts it.
    const first =
      this.conversationId === null && this.startKey !== undefined && clientMessageId !== undefined
        ? { agentId: agent.id, startKey: this.startKey, clientMessageId, text }
        : null;
    const started = first ? await findStartedConversation(this.ctx.db, first, this.ctx.now()) : null;
    if (first && started?.kind === "join") {
      await this.join(agent, started.conversationId, first.clientMessageId, started.message);
      return null;
    }
    // Sent again after a reconnect (the ack was lost): acknowledged again, before any limit counts it.
    const earlier = clientMessageId === undefined ? null : await this.storedClientMessage(clientMessageId);
    if (earlier && clientMessageId !== undefined && earlier.text === text) {
      this.acknowledge(clientMessageId, earlier);
      return null;
    }
    // The same id on another message (a page that numbers its messages anew after a reload): a
    // message of its own, stored without the id rather than lost as a repeat.
    const storedId = earlier ? {} : ref;
    const startsConversation = this.conversationId === null;
    try {
      await enforceWidgetMessageLimits(this.ctx.limiters, agent, this.client(agent.id), startsConversation);
    } catch (error) {
      this.sendError(error, ref);
      return null;
    }
    this.send({ type: "typing", active: true });
    // The stored reply (runTurn tells it once committed): its id names the message frame, and a spoken reply cut short is stored under it.
    const storedReply: { ids?: StoredTurnIds } = {};
    try {
      const response = await runTurn(
        this.ctx,
        agent,
        {
          message: text,
          ...(this.conversationId ? { conversationId: this.conversationId } : {}),
          ...(this.visitor ? { visitor: this.visitor } : {}),
        },
        {
          channel: "widget",
          pageVariables: startsConversation ? this.pendingVariables : undefined,
          pageUrl: startsConversation ? this.pageUrl : undefined,
          clientTools: this.clientTools(),
          ...(voice ? { voice: { stop: voice.stop } } : {}),
          ...storedId,
          // A key another conversation holds already (`taken`) is not kept again: that one keeps it.
          ...(first && started === null ? { firstMessageKeyHash: firstMessageKeyHash(first.startKey, first.clientMessageId) } : {}),
          onDelta: (delta) => {
            this.send({ type: "message.delta", delta, ...ref });
            voice?.onDelta(delta);
          },
          onStored: (ids) => {
            storedReply.ids = ids;
          },
        },
      );
      if (startsConversation) {
        this.pendingVariables = {};
        this.attach(response.conversationId);
        await this.attachTracking(response.conversationId);
        this.status = response.status;
        this.notice = await this.noticeFor(agent, response.status, null);
        this.sendReady([]);
      }
      const stored = storedReply.ids;
      if (!stored) throw new Error("the turn did not report its stored reply");
      if (clientMessageId !== undefined) this.send({ type: "ack", clientMessageId, messageId: stored.userMessageId });
      const messageId = stored.agentMessageId;
      this.send({
        type: "message",
        id: messageId,
        role: "agent",
        text: response.reply,
        html: renderMessageHtml(response.reply),
        richContent: response.richContent,
        toolCalls: response.toolCalls,
        createdAt: stored.createdAt.toISOString(),
        ...(voice ? { voice: true as const } : {}),
        ...ref,
      });
      // The visitor's message reopened a resolved conversation: no more closing line or rating.
      if (this.closing) {
        this.closing = null;
        this.send({ type: "closing", closing: null });
      }
      if (response.status !== this.status) {
        this.status = response.status;
        this.person = null;
        this.notice = await this.noticeFor(agent, response.status, null);
        this.send({ type: "status", status: response.status, person: null, notice: this.notice });
      }
      this.afterVisitorMessage();
      return { messageId, reply: response.reply };
    } catch (error) {
      // Another connection (the same page's, before its reconnect) stored this message first.
      if (clientMessageId !== undefined && isClientMessageConflict(error)) {
        const stored = await this.storedClientMessage(clientMessageId);
        if (stored?.text === text) {
          this.acknowledge(clientMessageId, stored);
          return null;
        }
      }
      // ... or started the conversation with it first.
      if (first && isFirstMessageConflict(error)) {
        const winner = await findStartedConversation(this.ctx.db, first, this.ctx.now());
        if (winner?.kind === "join") {
          await this.join(agent, winner.conversationId, first.clientMessageId, winner.message);
          return null;
        }
      }
      this.sendError(error, ref);
      return null;
    } finally {
      this.send({ type: "typing", active: false });
    }
  }

  /**
   * This connection holds the conversation from here: live events, presence, and its state as the
   * visitor sees it (status, person, notice, closing, email). False when the agent has no such conversation.
   */
  private async hold(agent: WidgetAgent, conversationId: string): Promise<boolean> {
    const conversation = await this.ctx.db.prisma.conversation.findFirst({
      where: { id: conversationId, agentId: agent.id },
      select: { id: true, status: true, visitorEmail: true, joinedBy: { select: { name: true } } },
    });
    if (!conversation) return false;
    this.attach(conversation.id);
    this.visitorEmail = conversation.visitorEmail;
    this.status = wireStatus(conversation.status);
    this.person = this.status === "escalated" && conversation.joinedBy ? publicName(conversation.joinedBy) : null;
    this.notice = await this.noticeFor(agent, this.status, this.person);
    this.closing = await closingOf(this.ctx.db, conversation.id);
    return true;
  }

  /**
   * The page's first message started this conversation on a socket that died before its `ready`:
   * this connection continues it as if it had started it (`ready` with its id and resume token,
   * then the ack and the stored reply), and what was written in it since (a person's reply) follows.
   */
  private async join(agent: WidgetAgent, conversationId: string, clientMessageId: string, first: StoredClientMessage): Promise<void> {
    if (!(await this.hold(agent, conversationId))) return;
    if (Object.keys(this.pendingVariables).length > 0) {
      const variables = this.pendingVariables;
      this.pendingVariables = {};
      await this.pageVariables(variables);
    }
    await this.attachTracking(conversationId);
    logger.info("widget first message sent again", { agentId: agent.id, conversationId });
    this.sendReady([]);
    this.acknowledge(clientMessageId, first);
    const since = await this.ctx.db.prisma.message.findMany({
      // The first turn's two messages are 0 and 1; the visitor's own later messages are not echoed.
      where: { conversationId, sequence: { gte: 2 }, role: { not: "user" } },
      orderBy: { sequence: "asc" },
      take: WIDGET_RESUME_MESSAGES,
      select: wireMessageSelect,
    });
    for (const message of since) this.send({ type: "message", ...toWireMessage(message) });
    this.afterVisitorMessage();
  }

  /** The message this conversation holds under `clientMessageId` (client-message.ts), if any. */
  private async storedClientMessage(clientMessageId: string): Promise<StoredClientMessage | null> {
    return this.conversationId ? findClientMessage(this.ctx.db, this.conversationId, clientMessageId) : null;
  }

  /** A message held already: acknowledged again, with the reply stored with it (the page may have missed it); no turn runs. */
  private acknowledge(clientMessageId: string, stored: StoredClientMessage): void {
    this.send({ type: "ack", clientMessageId, messageId: stored.messageId });
    if (stored.reply) this.send({ type: "message", ...stored.reply, clientMessageId });
  }

  /** voice.start: voice on for the agent, recognition available, minutes left, a slot among the IP's voice sessions. */
  private async startVoice(frame: Extract<ClientFrame, { type: "voice.start" }>): Promise<void> {
    try {
      await this.openVoice(frame);
    } finally {
      // Frames deferred behind this start now run (after it in the queue), against its outcome.
      this.voiceStartPending = false;
      this.deferredAudioFrames = 0;
    }
  }

  private async openVoice(frame: Extract<ClientFrame, { type: "voice.start" }>): Promise<void> {
    if (this.voice) {
      this.send({ type: "error", ...VOICE_ERRORS.alreadyStarted });
      return;
    }
    const agent = await this.loadAgent(this.agent?.id ?? "");
    if (!agent) return;
    this.agent = agent;
    const speech = this.ctx.speech;
    const refusal = await VoiceSession.refusal(this.ctx, agent, frame.language ?? agent.voiceLanguage);
    if (refusal || !speech) return this.send({ type: "error", ...(refusal ?? VOICE_ERRORS.noRecognition) });
    if (!VoiceSession.reserve(this.options.voiceSessionsPerInstance)) {
      this.send({ type: "error", ...VOICE_ERRORS.serverBusy });
      return;
    }
    let slot = false;
    try {
      slot = await this.takeVoiceSlot(agent);
    } finally {
      if (!slot) VoiceSession.release();
    }
    if (!slot) {
      this.send({ type: "error", ...VOICE_ERRORS.tooManySessions });
      return;
    }
    if (this.isClosed) {
      VoiceSession.release();
      return void this.stopVoice();
    }
    try {
      this.voice = new VoiceSession(this.ctx, speech, agent, this.voiceHost(), frame, this.options.voiceUtteranceMaxMs);
    } catch (error) {
      // The engines could not start (e.g. the VAD's runtime is missing): nothing may stay held.
      VoiceSession.release();
      await this.stopVoice();
      throw error;
    }
    logger.info("voice started", { agentId: agent.id, inputRate: frame.input.sampleRate, turnDetection: frame.turnDetection });
    this.voice.begin();
  }

  private voiceFrame(frame: Extract<ClientFrame, { type: "voice.append" | "voice.commit" | "voice.interrupt" | "voice.stop" }>): void {
    const voice = this.activeVoice();
    if (!voice) return;
    if (frame.type === "voice.append") voice.audio(Buffer.from(frame.audio, "base64"));
    else if (frame.type === "voice.commit") voice.commit();
    else if (frame.type === "voice.interrupt") voice.interrupt(frame.playedMs, frame.responseId);
    else void this.stopVoice();
  }

  private voiceHost(): VoiceHost {
    return {
      // The session ended itself (a limit, the quota): voice may start again, its slot is free.
      ended: () => void this.stopVoice(),
      send: (frame) => this.send(frame),
      sendAudio: (bytes) => {
        if (!this.isClosed) this.transport.sendBinary(bytes);
      },
      // In the connection's order: a spoken turn waits for a typed one before it, and the other way round.
      turn: (text, voice) => {
        const turn = this.queue.then(() => this.message(text, undefined, voice));
        this.queue = turn.then(
          () => undefined,
          (error: unknown) => this.fail(error),
        );
        return turn.catch(() => null);
      },
      replyCut: async (messageId) => {
        const row = await this.ctx.db.prisma.message.findUnique({ where: { id: messageId }, select: wireMessageSelect });
        if (row) this.send({ type: "message", ...toWireMessage(row) });
      },
    };
  }

  private async stopVoice(): Promise<void> {
    const voice = this.voice;
    this.voice = null;
    const slot = this.voiceSlot;
    this.voiceSlot = null;
    if (slot) {
      clearInterval(slot.renewal);
      void releaseVoiceSlot(this.ctx.limiters, slot.client).catch(logSlotError);
    }
    await voice?.stop().catch((error: unknown) => logger.warn("voice stop", { error: describeError(error) }));
  }

  private async takeVoiceSlot(agent: WidgetAgent): Promise<boolean> {
    const client = this.client(agent.id);
    if (!(await acquireVoiceSlot(this.ctx.limiters, agent, client))) return false;
    const renewal = setInterval(() => void renewVoiceSlot(this.ctx.limiters, client).catch(logSlotError), WIDGET_CONNECTION_SLOT_RENEW_MS);
    renewal.unref?.();
    this.voiceSlot = { client, renewal };
    return true;
  }

  /** The visitor's "Was this helpful?" on a reply: acknowledged with a `feedback` frame. */
  private async feedback(messageId: string, helpful: boolean): Promise<void> {
    if (this.conversationId === null || !this.agent) {
      this.send({ type: "error", error: "Not found", details: "messageId: no such reply in this conversation" });
      return;
    }
    try {
      const vote = { agentId: this.agent.id, conversationId: this.conversationId, messageId, helpful, clientIp: this.options.clientIp };
      this.send({ type: "feedback", ...(await voteOnAnswer(this.ctx, vote)) });
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.send({
        type: "error",
        error: error.message,
        details: error.code === "NOT_FOUND" ? "messageId: no such reply in this conversation" : error.details,
      });
    }
  }

  /** The visitor rates their resolved conversation: acknowledged with a `rating` frame (rating.ts says who may). */
  private async rate(frame: Extract<ClientFrame, { type: "rate" }>): Promise<void> {
    if (!this.agent) return;
    try {
      const rating = await rateConversation(
        this.ctx,
        { agentId: this.agent.id, sessionConversationId: this.conversationId, clientIp: this.options.clientIp },
        frame,
      );
      if (this.closing) this.closing = { ...this.closing, rating };
      this.send({ type: "rating", conversationId: frame.conversationId, ...rating });
    } catch (error) {
      this.sendError(error, {});
    }
  }

  private async pageVariables(variables: Record<string, string>): Promise<void> {
    if (this.conversationId === null) {
      const merged = { ...this.pendingVariables, ...variables };
      if (Object.keys(merged).length > CLIENT_VARIABLES_MAX_KEYS) {
        this.send({ type: "error", error: "Invalid request", details: `variables: must have at most ${CLIENT_VARIABLES_MAX_KEYS} keys` });
        return;
      }
      this.pendingVariables = merged;
      return;
    }
    await this.ctx.db.prisma.$executeRaw`
      UPDATE "Conversation"
      SET "pageVariables" = "pageVariables" || ${JSON.stringify(variables)}::jsonb
      WHERE "id" = ${this.conversationId} AND "agentId" = ${this.agent?.id ?? ""}`;
  }

  private async track(event: string, properties: Record<string, unknown>): Promise<void> {
    const now = this.ctx.now().getTime();
    if (now - this.trackWindow.start >= 60_000) this.trackWindow = { start: now, count: 0 };
    if (++this.trackWindow.count > TRACK_EVENTS_PER_MINUTE) {
      const retryAfter = Math.max(1, Math.ceil((this.trackWindow.start + 60_000 - now) / 1000));
      this.send({ type: "error", error: "Rate limit exceeded", details: "Too many tracking events", retryAfter });
      return;
    }
    const row = await this.ctx.db.prisma.trackingEvent.create({
      data: {
        agentId: this.agent?.id ?? "",
        conversationId: this.conversationId,
        event,
        properties: properties as Prisma.InputJsonValue,
        createdAt: this.ctx.now(),
      },
      select: { id: true },
    });
    if (this.conversationId === null) {
      this.unattachedTracking.push(row.id);
      if (this.unattachedTracking.length > UNATTACHED_TRACKING_MAX) this.unattachedTracking.shift();
    }
  }

  private async attachTracking(conversationId: string): Promise<void> {
    if (this.unattachedTracking.length === 0) return;
    const ids = this.unattachedTracking;
    this.unattachedTracking = [];
    await this.ctx.db.prisma.trackingEvent.updateMany({ where: { id: { in: ids }, conversationId: null }, data: { conversationId } });
  }

  /** The page's tools as the engine calls them: a tool_call frame, then the page's tool_result. */
  private clientTools(): ClientTool[] {
    return this.tools.map((definition) => ({
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      call: (args) => this.callTool(definition.name, args),
    }));
  }

  private callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.isClosed) return Promise.resolve({ error: "The visitor's page was closed" });
    const callId = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingCalls.delete(callId);
        resolve({ error: "The visitor's page did not answer in time" });
      }, this.options.toolTimeoutMs ?? WIDGET_TOOL_TIMEOUT_MS);
      this.pendingCalls.set(callId, { resolve, timer });
      this.send({ type: "tool_call", callId, name, args });
    });
  }

  private resolveToolCall(frame: Extract<ClientFrame, { type: "tool_result" }>): void {
    const pending = this.pendingCalls.get(frame.callId);
    if (!pending) return; // late (timed out) or unknown: ignored
    this.pendingCalls.delete(frame.callId);
    clearTimeout(pending.timer);
    pending.resolve(frame.error !== undefined ? { error: frame.error } : (frame.result ?? null));
  }

  private client(agentId: string): WidgetClient {
    return { agentId, connectionId: this.connectionId, clientIp: this.options.clientIp };
  }

  /** One of the IP's connection slots for this connection, renewed while it lives; else closes 4429. */
  private async takeSlot(agent: WidgetAgent): Promise<boolean> {
    const client = this.client(agent.id);
    if (!(await acquireConnectionSlot(this.ctx.limiters, agent, client))) {
      this.close("TOO_MANY_CONNECTIONS");
      return false;
    }
    if (this.isClosed) {
      // The socket closed while the slot was being taken: give it back at once.
      void releaseConnectionSlot(this.ctx.limiters, client).catch(logSlotError);
      return false;
    }
    const renewal = setInterval(
      () => void renewConnectionSlot(this.ctx.limiters, client).catch(logSlotError),
      WIDGET_CONNECTION_SLOT_RENEW_MS,
    );
    renewal.unref?.();
    this.slot = { client, renewal };
    return true;
  }

  private releaseSlot(): void {
    if (!this.slot) return;
    clearInterval(this.slot.renewal);
    void releaseConnectionSlot(this.ctx.limiters, this.slot.client).catch(logSlotError);
    this.slot = null;
  }

  /** The agent if it is active and this connection's origin is allowed; else closes and returns null. */
  private async loadAgent(agentId: string): Promise<WidgetAgent | null> {
    const agent = await this.ctx.db.prisma.agent.findUnique({ where: { id: agentId }, select: agentSelect });
    if (!agent?.active) {
      this.close("AGENT_NOT_FOUND");
      return null;
    }
    if (!isOriginAllowed(this.options.origin, agent.allowedOrigins)) {
      this.close("ORIGIN_NOT_ALLOWED");
      return null;
    }
    return agent;
  }

  private attach(conversationId: string): void {
    this.conversationId = conversationId;
    this.unsubscribe?.();
    this.unsubscribe = this.ctx.live?.subscribe(conversationId, (event) => this.onLive(event)) ?? null;
    this.holdPresence(conversationId);
  }

  /** The visitor is here while this socket lives: a person's replies reach them live, not by mail. */
  private holdPresence(conversationId: string): void {
    if (!emailEnabled(this.ctx)) return;
    const mark = () => void markVisitorPresence(this.ctx.db, conversationId, this.ctx.now()).catch(logPresenceError);
    mark();
    if (this.presenceTimer) clearInterval(this.presenceTimer);
    this.presenceTimer = setInterval(mark, WIDGET_CONNECTION_SLOT_RENEW_MS);
    this.presenceTimer.unref?.();
  }

  /** The socket closed: the visitor is away (another tab on the conversation marks it again within its renewal). */
  private leaveConversation(): void {
    if (this.emailPromptTimer) clearTimeout(this.emailPromptTimer);
    this.emailPromptTimer = null;
    if (!this.presenceTimer) return;
    clearInterval(this.presenceTimer);
    this.presenceTimer = null;
    if (this.conversationId) void markVisitorPresence(this.ctx.db, this.conversationId, null).catch(logPresenceError);
  }

  /** Whether the widget may ask for an address: this server sends email and none was given. */
  private mayAskEmail(): boolean {
    return emailEnabled(this.ctx) && this.conversationId !== null && this.visitorEmail === null;
  }

  /** Asks once per connection: on handoff, or when no person replied in time. */
  private promptEmail(): void {
    if (this.emailPrompted || !this.mayAskEmail()) return;
    this.emailPrompted = true;
    this.send({ type: "email_prompt" });
  }

  /**
   * After each visitor message: waiting for a person (handed off, nobody joined yet) asks now; with
   * a person in the conversation, ask if they have not replied within the limit. While the agent
   * answers there is a reply at once, so nothing to ask.
   */
  private afterVisitorMessage(): void {
    if (!this.mayAskEmail() || this.emailPrompted || this.status !== "escalated") return;
    if (this.person === null) {
      this.promptEmail();
      return;
    }
    if (this.emailPromptTimer) clearTimeout(this.emailPromptTimer);
    this.emailPromptTimer = setTimeout(() => this.promptEmail(), this.options.emailPromptAfterMs ?? VISITOR_EMAIL_PROMPT_AFTER_MS);
    this.emailPromptTimer.unref?.();
  }

  /** The visitor's address for this conversation (visitor-email.ts checks who may and how often). */
  private async giveEmail(email: string): Promise<void> {
    if (!this.agent) return;
    try {
      const stored = await setVisitorEmail(
        this.ctx,
        { agentId: this.agent.id, sessionConversationId: this.conversationId, clientIp: this.options.clientIp },
        { email },
      );
      this.visitorEmail = stored;
      if (this.emailPromptTimer) clearTimeout(this.emailPromptTimer);
      this.send({ type: "email", email: stored });
    } catch (error) {
      this.sendError(error, {});
    }
  }

  /** The transcript mailed to the address the visitor gave. */
  private async transcript(): Promise<void> {
    if (!this.agent) return;
    try {
      const sent = await mailTranscript(this.ctx, this.options.tokens, {
        agentId: this.agent.id,
        sessionConversationId: this.conversationId,
        clientIp: this.options.clientIp,
      });
      this.send({ type: "transcript", email: sent.to });
    } catch (error) {
      this.sendError(error, {});
    }
  }

  private onLive(event: LiveEvent): void {
    if (this.isClosed) return;
    if (event.type === "message") {
      this.send({ type: "message", ...event.message });
      // A person answered: no need to ask for an address because nobody did.
      if (event.message.role === "human" && this.emailPromptTimer) clearTimeout(this.emailPromptTimer);
      if (event.message.role === "human") this.voice?.speakPersonReply(event.message.text);
    } else if (event.type === "closing") {
      this.closing = event.closing;
      this.send({ type: "closing", closing: event.closing });
    } else if (event.type === "typing") {
      this.send({ type: "typing", active: event.active, person: event.person });
    } else if (event.type === "status") {
      const person = event.person ?? null;
      if (event.status === this.status && person === this.person) return;
      this.status = event.status;
      this.person = person;
      this.notice = event.notice ?? null;
      this.send({ type: "status", status: event.status, person, notice: this.notice });
      if (event.status === "escalated" && person === null) this.promptEmail();
    }
  }

  /** What the visitor is told about a person (core's one wording, handoff.ts); null while the agent answers. */
  private noticeFor(agent: WidgetAgent, status: WireStatus, person: string | null): Promise<string | null> {
    return visitorNotice(this.ctx.db, { workspaceId: agent.workspaceId, status, person }, this.ctx.now());
  }

  private async recentMessages(conversationId: string): Promise<WireMessage[]> {
    const rows = await this.ctx.db.prisma.message.findMany({
      where: { conversationId },
      orderBy: { sequence: "desc" },
      take: WIDGET_RESUME_MESSAGES,
      select: wireMessageSelect,
    });
    return rows.reverse().map(toWireMessage);
  }

  private sendReady(messages: WireMessage[]): void {
    const { conversationId, agent } = this;
    this.send({
      type: "ready",
      conversationId,
      resumeToken: conversationId && agent ? this.options.tokens.sign({ agentId: agent.id, conversationId }, this.ctx.now()) : null,
      status: this.status,
      person: this.person,
      notice: this.notice,
      messages,
      closing: this.closing,
      email: { enabled: emailEnabled(this.ctx), address: this.visitorEmail },
      ...(this.config ? { config: this.config } : {}),
    });
  }

  private sendError(error: unknown, ref: { clientMessageId?: string }): void {
    if (!isAppError(error)) {
      this.fail(error, ref);
      return;
    }
    const retryAfter = error.headers["retry-after"];
    this.send({
      type: "error",
      error: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(retryAfter === undefined ? {} : { retryAfter: Number(retryAfter) }),
      ...ref,
    });
  }

  private fail(error: unknown, ref: { clientMessageId?: string } = {}): void {
    logger.error("widget frame failed", { error: describeError(error) });
    this.send({ type: "error", error: new AppError("INTERNAL").message, ...ref });
  }

  private send(frame: ServerFrame): void {
    if (!this.isClosed) this.transport.send(frame);
  }

  private close(reason: CloseReason): void {
    if (this.isClosed) return;
    const { code, reason: text } = CLOSE_CODES[reason];
    this.transport.close(code, text);
    this.closed();
  }
}

/** Presence expires on its own; a failed write is worth a line in the log. */
function logPresenceError(error: unknown): void {
  logger.warn("widget presence", { error: describeError(error) });
}

/** A slot left behind expires on its own; the failure is worth a line in the log, not the visitor's attention. */
function logSlotError(error: unknown): void {
  logger.warn("widget connection slot", { error: describeError(error) });
}

/** Exact match of the page's origin (scheme, host and port) with one of the agent's. */
export function isOriginAllowed(origin: string | null, allowedOrigins: string[]): boolean {
  if (!origin || origin === "null") return false;
  return allowedOrigins.includes(origin.toLowerCase());
}

/** The clientMessageId of a frame that failed validation, when it has a readable one. */
function clientMessageIdOf(text: string): { clientMessageId?: string } {
  try {
    const value = (JSON.parse(text) as { clientMessageId?: unknown } | null)?.clientMessageId;
    return typeof value === "string" && value.length <= 100 ? { clientMessageId: value } : {};
  } catch {
    return {};
  }
}
