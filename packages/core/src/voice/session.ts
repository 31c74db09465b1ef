// One voice session on a widget / SDK connection: from voice.start to voice.stop (or the socket's
// close). Audio in: checked (started, whole samples, frame size, speed), converted to 16 kHz, and
// cut into utterances by the voice activity detector (server_vad) or by voice.commit
// (push_to_talk). An utterance is transcribed and goes through the connection's own turn path as
// the visitor's message; the reply is read aloud (spoken-reply.ts). Speech heard while a reply
// plays cuts it short (barge-in): the engine and the synthesis stop, and the stored reply becomes
// what was played.

import { effectiveVoiceLimit, type VoiceLimitSettings } from "../agents/voice-settings.ts";
import { AppError, isAppError } from "../platform/errors.ts";
import { describeError, logger } from "../platform/logger.ts";
import type { VoiceContext } from "./context.ts";
import {
  VOICE_AUDIO_ERROR_INTERVAL_MS,
  VOICE_FRAME_MAX_MS,
  VOICE_FRAME_MIN_MS,
  VOICE_INPUT_BURST_MS,
  VOICE_INPUT_SPEED_MAX,
  VOICE_PLAYED_MS_WAIT_MS,
  VOICE_RECOGNITION_TIMEOUT_MS,
  VOICE_SESSIONS_PER_INSTANCE,
  VOICE_UTTERANCE_MAX_MS,
} from "./limits.ts";
import { bytesToPcm, durationMs, resample } from "./pcm.ts";
import { VOICE_ERRORS, type VoiceServerFrame, type VoiceStartFrame, type VoiceState } from "./protocol.ts";
import { SPEECH_SAMPLE_RATE, type SpeechEngines } from "./speech.ts";
import { SpokenReply } from "./spoken-reply.ts";
import { assertVoiceMinutesLeft, recordVoiceSeconds } from "./usage.ts";
import { UtteranceDetector } from "./utterances.ts";

/** The agent's voice settings (Agent columns). */
export interface VoiceAgent extends VoiceLimitSettings {
  id: string;
  voiceEnabled: boolean;
  voiceName: string | null;
  voiceLanguage: string;
  monthlyVoiceMinutesLimit: number | null;
}

export const voiceAgentSelect = {
  voiceEnabled: true,
  voiceName: true,
  voiceLanguage: true,
  monthlyVoiceMinutesLimit: true,
  voiceSessionsPerIp: true,
  voiceMinutesPerSession: true,
} as const;

type ErrorText = { error: string; details?: string };

/** What the session needs of its connection (the widget session). */
export interface VoiceHost {
  /** The session stopped (voice.stop, a limit, the quota): the connection forgets it. */
  ended(): void;
  send(frame: VoiceServerFrame | ({ type: "error" } & ErrorText)): void;
  sendAudio(bytes: Uint8Array): void;
  /**
   * Runs the visitor's words as a turn of this conversation (in the connection's order, with its
   * limits); resolves with the stored reply, or null when the turn was refused (an error frame is sent).
   */
  turn(text: string, voice: { stop: AbortSignal; onDelta: (delta: string) => void }): Promise<{ messageId: string; reply: string } | null>;
  /** A stored reply was cut to what was played: the page is sent its new text. */
  replyCut(messageId: string, text: string): Promise<void>;
}

/** Voice sessions of this process (VOICE_SESSIONS_PER_INSTANCE). */
let sessionsHere = 0;

export class VoiceSession {
  private readonly inputRate: number;
  private readonly outputRate: number;
  private readonly pushToTalk: boolean;
  private readonly language: string;
  private readonly utterances: UtteranceDetector;
  private readonly startedAt: number;
  /** Nothing sent yet: begin() announces listening. */
  private state: VoiceState = "stopped";
  /** Leaky bucket of audio received (ms): drains VOICE_INPUT_SPEED_MAX ms per ms. */
  private bucket = { level: 0, at: 0 };
  /** Audio heard and not yet counted in the month's voice minutes (ms). */
  private uncountedMs = 0;
  /** The agent's reply of the latest turn, and team members' replies being read aloud. */
  private reply: SpokenReply | null = null;
  private readonly personReplies = new Set<SpokenReply>();
  private responses: Promise<void> = Promise.resolve();
  /** Replies cut short whose stored text is not yet what was played (the page's playedMs is awaited briefly). */
  private readonly cuts = new Map<SpokenReply, { playedMs: number; timer: NodeJS.Timeout | null }>();
  /** The reply cut last: a voice.interrupt's playedMs without a responseId is about it. */
  private lastCut: SpokenReply | null = null;
  private stopped = false;
  /** Aborted on stop: recognition still queued or running for a visitor who left is dropped. */
  private readonly lifetime = new AbortController();
  /** Ends the session at the agent's minutes per session, whether or not audio comes. */
  private readonly limitTimer: NodeJS.Timeout;
  /** When each kind of audio error was last sent (at most one a second each). */
  private readonly audioErrorsSent = new Map<string, number>();

  constructor(
    private readonly ctx: VoiceContext,
    private readonly engines: SpeechEngines,
    private agent: VoiceAgent,
    private readonly host: VoiceHost,
    start: VoiceStartFrame,
    /** Tests shorten the longest utterance. */
    utteranceMaxMs = VOICE_UTTERANCE_MAX_MS,
  ) {
    this.inputRate = start.input.sampleRate;
    this.outputRate = start.output.sampleRate;
    this.pushToTalk = start.turnDetection === "push_to_talk";
    this.language = (start.language ?? agent.voiceLanguage).toLowerCase().split("-")[0] ?? "en";
    this.utterances = new UtteranceDetector(engines.vad(), this.pushToTalk, utteranceMaxMs, {
      speechStarted: () => {
        this.host.send({ type: "voice.speech_started" });
        // Barge-in: the visitor talks over what is being said.
        for (const reply of this.audible()) this.cut(reply);
      },
      utterance: (audio) => {
        if (!this.pushToTalk) this.host.send({ type: "voice.speech_stopped" });
        this.answer(audio);
      },
      tooLong: () => {
        this.host.send({ type: "error", ...VOICE_ERRORS.utteranceTooLong });
        this.setState("listening");
      },
    });
    this.startedAt = ctx.now().getTime();
    this.bucket.at = Date.now();
    this.limitTimer = setTimeout(() => this.overTime(), effectiveVoiceLimit(agent, "voiceMinutesPerSession") * 60_000);
    this.limitTimer.unref?.();
  }

  /** Takes one of this instance's voice sessions; false when it holds VOICE_SESSIONS_PER_INSTANCE. Released by stop(). */
  static reserve(limit = VOICE_SESSIONS_PER_INSTANCE): boolean {
    if (sessionsHere >= limit) return false;
    sessionsHere++;
    return true;
  }

  /** Gives back a reservation that did not become a session (a session gives its own back on stop). */
  static release(): void {
    sessionsHere = Math.max(0, sessionsHere - 1);
  }

  /**
   * Whether voice may start for this agent now: voice on, recognition available (in the language),
   * minutes left. Returns the error to send, or null.
   */
  static async refusal(ctx: VoiceContext, agent: VoiceAgent, language = agent.voiceLanguage): Promise<ErrorText | null> {
    if (!agent.voiceEnabled) return VOICE_ERRORS.voiceOff;
    const speech = ctx.speech;
    if (!speech?.stt) return VOICE_ERRORS.noRecognition;
    if (speech.stt.supports?.(language) === false || speech.tts.supports?.(language) === false) return VOICE_ERRORS.languageUnsupported;
    try {
      await assertVoiceMinutesLeft(ctx.db, agent, ctx.now());
    } catch (error) {
      if (isAppError(error)) return { error: error.message };
      throw error;
    }
    return null;
  }

  begin(): void {
    this.setState("listening");
  }

  /** One frame of the page's audio (PCM16LE mono at the input rate). */
  audio(bytes: Uint8Array): void {
    if (this.stopped) return;
    const ms = durationMs(Math.floor(bytes.byteLength / 2), this.inputRate);
    // Every frame spends at least the shortest allowed: tiny frames cannot get past the speed limit.
    let error: ErrorText | null = null;
    if (!this.withinSpeed(Math.max(ms, VOICE_FRAME_MIN_MS))) error = VOICE_ERRORS.tooFast;
    else if (bytes.byteLength % 2 !== 0) error = VOICE_ERRORS.oddLength;
    else if (ms > VOICE_FRAME_MAX_MS) error = VOICE_ERRORS.frameTooLarge;
    else if (ms < VOICE_FRAME_MIN_MS) error = VOICE_ERRORS.frameTooSmall;
    if (error) {
      this.audioError(error);
      return;
    }
    this.uncountedMs += ms;
    if (this.ctx.now().getTime() - this.startedAt > effectiveVoiceLimit(this.agent, "voiceMinutesPerSession") * 60_000) {
      this.overTime();
      return;
    }
    this.utterances.push(resample(bytesToPcm(bytes), this.inputRate, SPEECH_SAMPLE_RATE));
  }

  /** Push-to-talk: the visitor's turn is over. */
  commit(): void {
    if (this.stopped) return;
    if (!this.pushToTalk) {
      this.host.send({ type: "error", ...VOICE_ERRORS.commitWithoutPushToTalk });
      return;
    }
    this.utterances.commit();
  }

  /**
   * The page stopped playing (a stop button, or after a barge-in) and/or says how much of a reply
   * it played. `responseId` names the reply; without it, a reply whose audio has started.
   */
  interrupt(playedMs: number | undefined, responseId: string | undefined): void {
    const named = (reply: SpokenReply) => (responseId === undefined ? reply.audioStarted : reply.id === responseId);
    for (const reply of this.audible().filter(named)) this.cut(reply);
    if (playedMs === undefined) return;
    const target = responseId === undefined ? this.lastCut : [...this.cuts.keys()].find((reply) => reply.id === responseId);
    const cut = target && this.cuts.get(target);
    if (!target || !cut) return;
    cut.playedMs = playedMs;
    this.storeCut(target);
  }

  /**
   * A team member's reply while voice is on: read aloud too, after what is being said. Their
   * message is theirs: a visitor talking over it stops the audio, never the stored text.
   */
  speakPersonReply(markdown: string): void {
    if (this.stopped) return;
    const before = this.audible();
    const reply = this.newReply();
    this.personReplies.add(reply);
    void (async () => {
      while (before.some((other) => other.isPlaying())) await new Promise((resolve) => setTimeout(resolve, 100));
      reply.push(markdown);
      await reply.finish();
      if (!this.stopped && !this.utterances.speaking && this.audible().length === 0) this.setState("listening");
    })()
      .catch((error: unknown) => logger.warn("voice: a person's reply not spoken", { error: describeError(error) }))
      .finally(() => this.personReplies.delete(reply));
  }

  /**
   * voice.stop, a limit, or the socket closed: the audio stops, but a turn still running finishes
   * and keeps its whole reply (the visitor can read it); counts the minutes heard; releases all.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    VoiceSession.release();
    clearTimeout(this.limitTimer);
    this.lifetime.abort();
    for (const reply of this.audible()) reply.silence();
    // Replies cut short before are stored now, without waiting for the page.
    for (const reply of this.cuts.keys()) this.storeCut(reply);
    this.utterances.close();
    this.setState("stopped", true);
    this.host.ended();
    await this.countMinutes(true);
  }

  /** What is being said (or about to be): the agent's reply and team members' replies. */
  private audible(): SpokenReply[] {
    return [this.reply, ...this.personReplies].filter((reply): reply is SpokenReply => reply?.isPlaying() === true);
  }

  private withinSpeed(ms: number): boolean {
    const now = Date.now();
    const drained = Math.max(0, this.bucket.level - (now - this.bucket.at) * VOICE_INPUT_SPEED_MAX);
    this.bucket.at = now;
    if (drained + ms > VOICE_INPUT_BURST_MS) {
      this.bucket.level = drained;
      return false;
    }
    this.bucket.level = drained + ms;
    return true;
  }

  /** The session reached the agent's minutes per session. */
  private overTime(): void {
    if (this.stopped) return;
    this.host.send({ type: "error", ...VOICE_ERRORS.sessionTooLong });
    void this.stop();
  }

  /** An error about the audio, at most once a second of each kind: the frame is dropped either way. */
  private audioError(error: ErrorText): void {
    const now = Date.now();
    const key = error.details ?? error.error;
    if (now - (this.audioErrorsSent.get(key) ?? -Infinity) < VOICE_AUDIO_ERROR_INTERVAL_MS) return;
    this.audioErrorsSent.set(key, now);
    this.host.send({ type: "error", ...error });
  }

  /** A whole utterance: its turn is answered after the ones before it. */
  private answer(audio: Int16Array): void {
    // Push-to-talk has no speech start: a new turn cuts what is still being said.
    for (const reply of this.audible()) this.cut(reply);
    this.setState("thinking");
    // One utterance at a time per session: however fast a visitor talks, their turns queue.
    this.responses = this.responses
      .then(() => this.respond(audio))
      .catch((error: unknown) => {
        logger.error("voice turn failed", { agentId: this.agent.id, error: describeError(error) });
        this.host.send({ type: "error", error: new AppError("INTERNAL").message });
        this.setState("listening");
      });
  }

  private async respond(audio: Int16Array): Promise<void> {
    this.setState("thinking");
    const text = await this.transcribe(audio);
    if (this.stopped || text === null) return;
    if (!text) {
      this.host.send({ type: "error", ...VOICE_ERRORS.notUnderstood });
      this.setState("listening");
      return;
    }
    this.host.send({ type: "voice.transcript", role: "user", text, final: true });
    await this.countMinutes();
    // Read again: voice turned off or minutes lowered in the panel apply at the next turn.
    this.agent =
      (await this.ctx.db.prisma.agent.findUnique({ where: { id: this.agent.id }, select: { id: true, ...voiceAgentSelect } })) ??
      this.agent;
    const refusal = await VoiceSession.refusal(this.ctx, this.agent, this.language);
    // Voice ended while the words were read: the visitor said them, but nothing more is answered.
    if (this.stopped) return;
    if (refusal) {
      this.host.send({ type: "error", ...refusal });
      void this.stop();
      return;
    }
    const reply = this.newReply();
    reply.storesCut = true;
    this.reply = reply;
    let streamed = false;
    const stored = await this.host.turn(text, {
      stop: reply.controller.signal,
      onDelta: (delta) => {
        streamed = true;
        reply.push(delta);
      },
    });
    if (!stored) {
      this.cuts.delete(reply);
      reply.silence();
      this.setState("listening");
      return;
    }
    reply.messageId = stored.messageId;
    // Engines that answer at once stream nothing: the whole reply is read.
    if (!streamed) reply.push(stored.reply);
    await reply.finish();
    // Cut short while the engine wrote or the audio played: stored as played once the page says.
    if (reply.interrupted) {
      this.awaitPlayedMs(reply);
      return;
    }
    if (this.stopped) return;
    this.host.send({ type: "voice.transcript", role: "agent", text: reply.spokenText(), final: true, messageId: stored.messageId });
    if (!this.utterances.speaking && this.audible().length === 0) this.setState("listening");
  }

  private async transcribe(audio: Int16Array): Promise<string | null> {
    const stt = this.ctx.speech?.stt;
    if (!stt) {
      this.host.send({ type: "error", ...VOICE_ERRORS.noRecognition });
      return null;
    }
    try {
      const signal = AbortSignal.any([this.lifetime.signal, AbortSignal.timeout(VOICE_RECOGNITION_TIMEOUT_MS)]);
      return (await stt.transcribe(audio, { language: this.language, signal })).text.trim();
    } catch (error) {
      if (this.stopped) return null;
      logger.warn("speech recognition failed", { agentId: this.agent.id, engine: stt.name, error: describeError(error) });
      this.host.send({ type: "error", ...VOICE_ERRORS.recognitionFailed });
      this.setState("listening");
      return null;
    }
  }

  private newReply(): SpokenReply {
    const voice =
      this.agent.voiceName && this.engines.tts.voices.includes(this.agent.voiceName)
        ? this.agent.voiceName
        : (this.engines.tts.voices[0] ?? "");
    return new SpokenReply(
      this.engines.tts,
      { voice, language: this.language, outputRate: this.outputRate },
      {
        frame: (frame) => {
          if (frame.type === "voice.audio.start") this.setState("speaking");
          this.host.send(frame);
        },
        audio: (bytes) => this.host.sendAudio(bytes),
        failed: (error) => {
          logger.warn("speech synthesis failed", { agentId: this.agent.id, engine: this.engines.tts.name, error: describeError(error) });
          this.host.send({ type: "error", ...VOICE_ERRORS.synthesisFailed });
        },
      },
    );
  }

  /** Cuts a reply short: the engine and the synthesis stop, the page is told, the visitor is heard. */
  private cut(reply: SpokenReply): void {
    const playedMs = reply.estimatedPlayedMs();
    reply.interrupt();
    if (reply.storesCut) {
      this.cuts.set(reply, { playedMs, timer: null });
      this.lastCut = reply;
    }
    // The visitor is talking (barge-in) or the page stopped the reply: either way, Parley listens.
    this.setState("listening");
    this.awaitPlayedMs(reply);
  }

  /**
   * The page says how much it played (voice.interrupt) within a moment; else the clock's estimate
   * is stored. Waits for the reply's turn to be stored first.
   */
  private awaitPlayedMs(reply: SpokenReply): void {
    const cut = this.cuts.get(reply);
    if (!cut || cut.timer || !reply.messageId) return;
    cut.timer = setTimeout(() => this.storeCut(reply), VOICE_PLAYED_MS_WAIT_MS);
    cut.timer.unref?.();
  }

  /** Stores what was played of a reply cut short, and tells the page. */
  private storeCut(reply: SpokenReply): void {
    const cut = this.cuts.get(reply);
    const messageId = reply.messageId;
    if (!cut || !messageId) return;
    if (cut.timer) clearTimeout(cut.timer);
    this.cuts.delete(reply);
    const text = reply.heardText(Math.min(cut.playedMs, reply.audioMs)) || "…";
    void this.ctx.db.prisma.message
      .update({ where: { id: messageId }, data: { text, interrupted: true }, select: { id: true } })
      .then(async () => {
        this.host.send({ type: "voice.transcript", role: "agent", text, final: true, messageId });
        await this.host.replyCut(messageId, text);
      })
      .catch((error: unknown) => logger.warn("interrupted reply not stored", { agentId: this.agent.id, error: describeError(error) }));
  }

  /** Adds the audio heard to the month's voice minutes: whole seconds, and at the end what is left, rounded up. */
  private async countMinutes(final = false): Promise<void> {
    const seconds = final ? Math.ceil(this.uncountedMs / 1000) : Math.floor(this.uncountedMs / 1000);
    if (seconds <= 0) return;
    this.uncountedMs = Math.max(0, this.uncountedMs - seconds * 1000);
    try {
      await recordVoiceSeconds(this.ctx.db, this.agent.id, seconds, this.ctx.now());
    } catch (error) {
      this.uncountedMs += seconds * 1000;
      logger.warn("voice minutes not counted", { agentId: this.agent.id, error: describeError(error) });
    }
  }

  private setState(state: VoiceState, force = false): void {
    if (this.stopped && !force) return;
    if (state === this.state) return;
    this.state = state;
    this.host.send({ type: "voice.state", state });
  }
}
