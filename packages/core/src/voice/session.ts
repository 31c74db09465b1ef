// One voice session on a widget / SDK connection: from voice.start to voice.stop (or the socket's
// close). Audio in: checked (started, whole samples, frame size, speed), converted to 16 kHz, and
// cut into utterances by the voice activity detector (server_vad) or by voice.commit
// (push_to_talk). An utterance is transcribed and goes through the connection's own turn path as
// the visitor's message; the reply is read aloud (spoken-reply.ts). Speech heard while a reply
// plays cuts it short (barge-in): the engine and the synthesis stop, and the stored reply becomes
// what was played.
import type { AppContext } from "../context.ts";
import { AppError, isAppError } from "../errors.ts";
import { describeError, logger } from "../logger.ts";
import {
  effectiveVoiceLimit,
  VOICE_AUDIO_ERROR_INTERVAL_MS,
  VOICE_END_OF_SPEECH_MS,
  VOICE_FRAME_MAX_MS,
  VOICE_FRAME_MIN_MS,
  VOICE_INPUT_BURST_MS,
  VOICE_INPUT_SPEED_MAX,
  VOICE_LEAD_IN_MS,
  VOICE_MIN_SPEECH_MS,
  VOICE_PLAYED_MS_WAIT_MS,
  VOICE_RECOGNITION_TIMEOUT_MS,
  VOICE_SESSIONS_PER_INSTANCE,
  VOICE_SPEECH_THRESHOLD,
  VOICE_UTTERANCE_MAX_MS,
  type VoiceLimitSettings,
} from "./limits.ts";
import { bytesToPcm, durationMs, resample } from "./pcm.ts";
import { VOICE_ERRORS, type VoiceServerFrame, type VoiceStartFrame, type VoiceState } from "./protocol.ts";
import { SPEECH_SAMPLE_RATE, type SpeechEngines, type VoiceActivityDetector } from "./speech.ts";
import { SpokenReply } from "./spoken-reply.ts";
import { assertVoiceMinutesLeft, recordVoiceSeconds } from "./usage.ts";

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

interface Utterance {
  chunks: Int16Array[];
  samples: number;
}

/** Voice sessions of this process (VOICE_SESSIONS_PER_INSTANCE). */
let sessionsHere = 0;

export class VoiceSession {
  private readonly inputRate: number;
  private readonly outputRate: number;
  private readonly pushToTalk: boolean;
  private readonly language: string;
  private readonly vad: VoiceActivityDetector;
  private readonly startedAt: number;
  /** Nothing sent yet: begin() announces listening. */
  private state: VoiceState = "stopped";
  /** Leaky bucket of audio received (ms): drains VOICE_INPUT_SPEED_MAX ms per ms. */
  private bucket = { level: 0, at: 0 };
  /** Recent audio before speech started (lead-in), newest last. */
  private leadIn: Int16Array[] = [];
  private leadInSamples = 0;
  /** Speech heard but not yet long enough to count. */
  private candidate: Utterance | null = null;
  private utterance: Utterance | null = null;
  private silenceMs = 0;
  /** Audio heard and not yet counted in the month's voice minutes (ms). */
  private uncountedMs = 0;
  private reply: SpokenReply | null = null;
  private responses: Promise<void> = Promise.resolve();
  /** Replies cut short whose stored text is not yet what was played (the page's playedMs is awaited briefly). */
  private readonly cuts = new Map<SpokenReply, { playedMs: number; timer: NodeJS.Timeout | null }>();
  /** The reply cut last: a voice.interrupt's playedMs is about it. */
  private lastCut: SpokenReply | null = null;
  private stopped = false;
  /** Aborted on stop: recognition still queued or running for a visitor who left is dropped. */
  private readonly lifetime = new AbortController();
  /** Ends the session at the agent's minutes per session, whether or not audio comes. */
  private readonly limitTimer: NodeJS.Timeout;
  /** When each kind of audio error was last sent (at most one a second each). */
  private readonly audioErrorsSent = new Map<string, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly engines: SpeechEngines,
    private agent: VoiceAgent,
    private readonly host: VoiceHost,
    start: VoiceStartFrame,
    /** Tests shorten the longest utterance. */
    private readonly utteranceMaxMs = VOICE_UTTERANCE_MAX_MS,
  ) {
    this.inputRate = start.input.sampleRate;
    this.outputRate = start.output.sampleRate;
    this.pushToTalk = start.turnDetection === "push_to_talk";
    this.language = (start.language ?? agent.voiceLanguage).toLowerCase().split("-")[0] ?? "en";
    this.vad = engines.vad();
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
  static async refusal(ctx: AppContext, agent: VoiceAgent, language = agent.voiceLanguage): Promise<ErrorText | null> {
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
    if (!this.withinSpeed(Math.max(ms, VOICE_FRAME_MIN_MS))) {
      this.audioError(VOICE_ERRORS.tooFast);
      return;
    }
    if (bytes.byteLength % 2 !== 0) {
      this.audioError(VOICE_ERRORS.oddLength);
      return;
    }
    if (ms > VOICE_FRAME_MAX_MS) {
      this.audioError(VOICE_ERRORS.frameTooLarge);
      return;
    }
    if (ms < VOICE_FRAME_MIN_MS) {
      this.audioError(VOICE_ERRORS.frameTooSmall);
      return;
    }
    this.uncountedMs += ms;
    if (this.ctx.now().getTime() - this.startedAt > effectiveVoiceLimit(this.agent, "voiceMinutesPerSession") * 60_000) {
      this.overTime();
      return;
    }
    const pcm = resample(bytesToPcm(bytes), this.inputRate, SPEECH_SAMPLE_RATE);
    if (this.pushToTalk) this.collect(pcm);
    else this.detect(pcm);
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

  /** Push-to-talk: the visitor's turn is over. */
  commit(): void {
    if (this.stopped) return;
    if (!this.pushToTalk) {
      this.host.send({ type: "error", ...VOICE_ERRORS.commitWithoutPushToTalk });
      return;
    }
    const utterance = this.utterance;
    this.utterance = null;
    if (utterance) this.finishUtterance(utterance);
  }

  /** The page stopped playing the reply (or says how much of it it played). */
  interrupt(playedMs: number | undefined): void {
    if (this.reply?.isPlaying()) this.cut(this.reply);
    const last = this.lastCut;
    const cut = last && this.cuts.get(last);
    if (!last || !cut || playedMs === undefined) return;
    cut.playedMs = playedMs;
    this.storeCut(last);
  }

  /**
   * A team member's reply while voice is on: read aloud too, after a reply still playing. Their
   * message is theirs: a visitor talking over it stops the audio, never the stored text.
   */
  speakPersonReply(markdown: string): void {
    if (this.stopped) return;
    const previous = this.reply;
    const reply = this.newReply();
    this.reply = reply;
    void (async () => {
      while (previous?.isPlaying()) await new Promise((resolve) => setTimeout(resolve, 100));
      if (reply.interrupted || this.stopped) return;
      reply.push(markdown);
      await reply.finish();
      if (this.reply === reply && !this.utterance) this.setState("listening");
    })().catch((error: unknown) => logger.warn("voice: a person's reply not spoken", { error: describeError(error) }));
  }

  /** voice.stop, a limit, or the socket closed: counts the minutes heard and releases everything. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    VoiceSession.release();
    clearTimeout(this.limitTimer);
    this.lifetime.abort();
    // A reply still playing is cut where it is; one cut before is stored now, without waiting.
    if (this.reply?.isPlaying()) this.cut(this.reply);
    for (const reply of this.cuts.keys()) this.storeCut(reply);
    this.vad.close();
    this.setState("stopped", true);
    this.host.ended();
    await this.countMinutes(true);
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

  private collect(pcm: Int16Array): void {
    this.utterance ??= { chunks: [], samples: 0 };
    if (!this.append(this.utterance, pcm)) this.utterance = null;
  }

  /** Server VAD: speech starts after VOICE_MIN_SPEECH_MS of it, ends after VOICE_END_OF_SPEECH_MS of silence. */
  private detect(pcm: Int16Array): void {
    const windows = this.vad.push(pcm);
    const speech = windows.some((window) => window.speech >= VOICE_SPEECH_THRESHOLD);
    const ms = durationMs(pcm.length, SPEECH_SAMPLE_RATE);
    if (this.utterance) {
      if (!this.append(this.utterance, pcm)) {
        this.utterance = null;
        return;
      }
      this.silenceMs = speech ? 0 : this.silenceMs + ms;
      if (this.silenceMs >= VOICE_END_OF_SPEECH_MS) {
        const utterance = this.utterance;
        this.utterance = null;
        this.host.send({ type: "voice.speech_stopped" });
        this.finishUtterance(utterance);
      }
      return;
    }
    if (!speech) {
      if (this.candidate) for (const chunk of this.candidate.chunks) this.keepLeadIn(chunk);
      this.candidate = null;
      this.keepLeadIn(pcm);
      return;
    }
    this.candidate ??= { chunks: [], samples: 0 };
    this.candidate.chunks.push(pcm);
    this.candidate.samples += pcm.length;
    if (durationMs(this.candidate.samples, SPEECH_SAMPLE_RATE) < VOICE_MIN_SPEECH_MS) return;
    this.utterance = { chunks: [...this.leadIn, ...this.candidate.chunks], samples: this.leadInSamples + this.candidate.samples };
    this.candidate = null;
    this.leadIn = [];
    this.leadInSamples = 0;
    this.silenceMs = 0;
    this.host.send({ type: "voice.speech_started" });
    // Barge-in: the visitor talks over the reply.
    if (this.reply?.isPlaying()) this.cut(this.reply);
  }

  private keepLeadIn(pcm: Int16Array): void {
    this.leadIn.push(pcm);
    this.leadInSamples += pcm.length;
    const keep = (SPEECH_SAMPLE_RATE * VOICE_LEAD_IN_MS) / 1000;
    while (this.leadIn.length > 1 && this.leadInSamples - (this.leadIn[0]?.length ?? 0) >= keep) {
      this.leadInSamples -= this.leadIn.shift()?.length ?? 0;
    }
  }

  /** Adds audio to an utterance; false (and an error frame) when it grows past the longest allowed. */
  private append(utterance: Utterance, pcm: Int16Array): boolean {
    utterance.chunks.push(pcm);
    utterance.samples += pcm.length;
    if (durationMs(utterance.samples, SPEECH_SAMPLE_RATE) <= this.utteranceMaxMs) return true;
    this.host.send({ type: "error", ...VOICE_ERRORS.utteranceTooLong });
    this.vad.reset();
    this.setState("listening");
    return false;
  }

  private finishUtterance(utterance: Utterance): void {
    const audio = new Int16Array(utterance.samples);
    let offset = 0;
    for (const chunk of utterance.chunks) {
      audio.set(chunk, offset);
      offset += chunk.length;
    }
    // Push-to-talk has no speech start to cut a reply still playing: the new turn does.
    if (this.reply?.isPlaying()) this.cut(this.reply);
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
    const text = await this.transcribe(audio);
    if (this.stopped || text === null) return;
    if (!text) {
      this.host.send({ type: "error", ...VOICE_ERRORS.notUnderstood });
      return this.setState("listening");
    }
    this.host.send({ type: "voice.transcript", role: "user", text, final: true });
    await this.countMinutes();
    // Read again: voice turned off or minutes lowered in the panel apply at the next turn.
    this.agent =
      (await this.ctx.db.prisma.agent.findUnique({ where: { id: this.agent.id }, select: { id: true, ...voiceAgentSelect } })) ??
      this.agent;
    const refusal = await VoiceSession.refusal(this.ctx, this.agent, this.language);
    if (refusal) {
      this.host.send({ type: "error", ...refusal });
      return void this.stop();
    }
    // A new turn replaces a reply still playing.
    if (this.reply?.isPlaying()) this.cut(this.reply);
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
      reply.interrupt();
      return this.setState("listening");
    }
    reply.messageId = stored.messageId;
    // Engines that answer at once stream nothing: the whole reply is read.
    if (!streamed) reply.push(stored.reply);
    if (!reply.interrupted) await reply.finish();
    // Cut short while the engine wrote or the audio played: stored as played once the page says.
    if (reply.interrupted) return this.awaitPlayedMs(reply);
    this.host.send({ type: "voice.transcript", role: "agent", text: reply.spokenText(), final: true, messageId: stored.messageId });
    if (this.reply === reply && !this.utterance) this.setState("listening");
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
