// Voice on a connection (README, "Voice"): the raw API (voice.start, binary PCM16 frames, commit,
// interrupt, stop; the reply's audio as events) and, in a browser, the microphone mode built on it,
// which records, sends, plays the replies and answers barge-in by itself.
import { type Microphone, openMicrophone, VoiceError } from "./microphone.ts";
import { Player } from "./playback.ts";
import type {
  ErrorFrame,
  VoiceAudioFormat,
  VoiceClientFrame,
  VoiceSampleRate,
  VoiceServerFrame,
  VoiceState,
  VoiceTranscript,
} from "./protocol.ts";

export { VoiceError, type VoiceErrorCode } from "./microphone.ts";

export interface VoiceOpenOptions {
  /** The rate of the audio you send (default 16000). */
  inputSampleRate?: VoiceSampleRate;
  /** The rate of the reply audio you want (default 16000). */
  outputSampleRate?: VoiceSampleRate;
  /** server_vad (default): the server hears the end of a turn; push_to_talk: commit() ends it. */
  turnDetection?: "server_vad" | "push_to_talk";
  /** A language tag such as "en" or "en-US" (default: the agent's). */
  language?: string;
}

export interface VoiceStartOptions extends Omit<VoiceOpenOptions, "inputSampleRate"> {
  /** Start with the microphone muted (nothing is sent until unmute()). */
  muted?: boolean;
  /** A context to record and play through (create it in a click handler); default: a new one. */
  audioContext?: AudioContext;
  /** The browser's echo cancellation, noise suppression and gain control (default true). */
  audioProcessing?: boolean;
  /** The rate sent to the server (default 16000); the microphone is resampled to it. */
  inputSampleRate?: VoiceSampleRate;
}

export interface VoiceEvents {
  /** The server's voice state; "stopped" ends voice (also sent by the SDK when the socket closes). */
  "voice.state": VoiceState;
  "voice.transcript": VoiceTranscript;
  "voice.speech_started": undefined;
  "voice.speech_stopped": undefined;
  "voice.audio.start": { responseId: string; format: VoiceAudioFormat };
  /** A piece of the reply's audio (PCM16 mono at format.sampleRate), in order. */
  "voice.audio": { responseId: string; pcm: Int16Array };
  "voice.audio.end": { responseId: string; interrupted: boolean };
  /** Microphone mode: a reply is being played aloud in the page (true) or has finished or been cut (false). */
  "voice.playing": boolean;
  /** Microphone mode could not start or went on without sound: the same error start() rejects with. */
  "voice.error": { code: VoiceError["code"]; message: string };
}

export interface ParleyVoice {
  /** "stopped" until voice.open()/start() is acknowledged. */
  readonly state: VoiceState;
  readonly muted: boolean;
  /** Sends voice.start; resolves when the server listens, rejects with the server's error. */
  open(options?: VoiceOpenOptions): Promise<void>;
  /** PCM16 mono audio at the input rate (little-endian as the platform's Int16Array), sent in frames of at most 100 ms. */
  sendAudio(pcm: Int16Array | ArrayBuffer): void;
  /** push_to_talk: the visitor's turn is over. */
  commit(): void;
  /**
   * Cuts a reply: playedMs is how much of it was heard (microphone mode works it out), responseId
   * the reply (voice.audio.start's); by default the reply playing in microphone mode, else the one
   * whose audio is still arriving. Pass it when your own player cuts a reply after its audio ended.
   */
  interrupt(playedMs?: number, responseId?: string): void;
  /** Ends voice (the microphone is released); text chat goes on. */
  stop(): void;
  /** Browser: records the microphone, sends it and plays the replies (barge-in included). */
  start(options?: VoiceStartOptions): Promise<void>;
  /** Microphone mode: stop / resume sending audio. */
  mute(): void;
  unmute(): void;
}

/** What the connection gives its voice. */
export interface VoiceLink {
  /** Queued until the connection is ready. */
  post(frame: VoiceClientFrame): void;
  /** False when the socket is not open (the audio is dropped: it is live). */
  sendBinary(data: ArrayBuffer): boolean;
  emit<E extends keyof VoiceEvents>(event: E, payload: VoiceEvents[E]): void;
}

const DEFAULT_RATE: VoiceSampleRate = 16_000;
/** The protocol's largest audio frame. */
const FRAME_MAX_MS = 100;

/**
 * A voice.start sent that the server has not finished answering. The server answers in order: each
 * start is refused (an error) or acknowledged ("listening"), and an acknowledged one ends with
 * "stopped" (after the page's voice.stop, or on its own: a limit, the quota). A voice.stop for a
 * refused start gets no "stopped".
 */
interface Session {
  acknowledged: boolean;
  /** The page stopped it (voice.stop sent): the server's frames about it are not news. */
  stopped: boolean;
}

/** A microphone-mode start under way: stop() (or the socket closing) cancels it. */
interface Starting {
  cancelled: VoiceError | null;
  /** By stop(): the page knows, no voice.error. */
  byPage: boolean;
}

/** Error texts the server answers voice.start with (core's VOICE_ERRORS, the quota, a malformed start). */
const START_REFUSALS = new Set(["Voice unavailable", "Voice limit reached", "Monthly voice minutes exhausted"]);
const START_FIELDS = /^(input|output|turnDetection|language)[.:]/;
const ALREADY_STARTED = "type: voice is already started; send voice.stop first";

function refusesStart(frame: ErrorFrame): boolean {
  if (frame.clientMessageId !== undefined) return false;
  if (START_REFUSALS.has(frame.error)) return true;
  const details = frame.details ?? "";
  return frame.error === "Invalid request" && (START_FIELDS.test(details) || details === ALREADY_STARTED);
}

export class Voice implements ParleyVoice {
  state: VoiceState = "stopped";
  muted = false;
  /** Set by open() until "stopped": the rate of the audio sent. */
  private inputRate: number | null = null;
  private pending: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /** The reply whose binary frames are arriving. */
  private current: string | null = null;
  /** Replies this page cut itself (voice.interrupt sent already). */
  private readonly cut = new Set<string>();
  private microphone: Microphone | null = null;
  private player: Player | null = null;
  /** The starts the server has not finished with, oldest first: its voice frames are about the first. */
  private sessions: Session[] = [];
  private starting: Starting | null = null;

  constructor(private readonly link: VoiceLink) {}

  open(options: VoiceOpenOptions = {}): Promise<void> {
    if (this.inputRate !== null) return Promise.reject(new Error("Voice is already open: stop() it first"));
    const input = options.inputSampleRate ?? DEFAULT_RATE;
    this.inputRate = input;
    this.sessions.push({ acknowledged: false, stopped: false });
    const acknowledged = new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
    });
    this.link.post({
      type: "voice.start",
      input: { encoding: "pcm16", sampleRate: input },
      output: { encoding: "pcm16", sampleRate: options.outputSampleRate ?? DEFAULT_RATE },
      ...(options.turnDetection ? { turnDetection: options.turnDetection } : {}),
      ...(options.language ? { language: options.language } : {}),
    });
    return acknowledged;
  }

  sendAudio(pcm: Int16Array | ArrayBuffer): void {
    if (this.inputRate === null) throw new Error("Call voice.open() before sending audio");
    const bytes = pcm instanceof ArrayBuffer ? new Uint8Array(pcm) : new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    if (bytes.byteLength % 2 !== 0) throw new RangeError("PCM16 audio must be whole 16-bit samples (an even number of bytes)");
    const frameBytes = ((this.inputRate * FRAME_MAX_MS) / 1000) * 2;
    for (let at = 0; at < bytes.byteLength; at += frameBytes) this.link.sendBinary(bytes.slice(at, at + frameBytes).buffer);
  }

  commit(): void {
    this.link.post({ type: "voice.commit" });
  }

  interrupt(playedMs?: number, responseId?: string): void {
    const playing = this.player?.current() ?? null;
    // The server cuts only the reply named (a late interrupt must not cut the next one).
    const reply = responseId ?? playing ?? this.current;
    let played = playedMs;
    if (playing !== null && reply === playing) {
      this.cut.add(playing);
      played ??= this.player?.cut(playing);
    }
    this.link.post({
      type: "voice.interrupt",
      ...(reply === null ? {} : { responseId: reply }),
      ...(played === undefined ? {} : { playedMs: Math.max(0, Math.round(played)) }),
    });
  }

  /** Microphone mode: cuts the reply playing, if one is, and tells the server what was heard. */
  private bargeIn(): void {
    if (this.player?.current()) this.interrupt();
  }

  stop(): void {
    const wasOn = this.inputRate !== null;
    // A start still asking for the microphone gives up when it gets it.
    this.cancelStart(new VoiceError("server", "Voice was stopped"), true);
    this.release();
    this.pending?.reject(new VoiceError("server", "Voice was stopped"));
    this.pending = null;
    if (!wasOn) return;
    const session = this.sessions.at(-1);
    if (session) session.stopped = true;
    this.link.post({ type: "voice.stop" });
    // Stopped for the page at once, whatever the network's delay.
    this.setState("stopped");
  }

  async start(options: VoiceStartOptions = {}): Promise<void> {
    if (this.starting || this.inputRate !== null || this.microphone) throw new Error("Voice is already on: stop() it first");
    const starting: Starting = { cancelled: null, byPage: false };
    this.starting = starting;
    try {
      await this.startMicrophone(options, starting);
    } finally {
      if (this.starting === starting) this.starting = null;
    }
  }

  private async startMicrophone(options: VoiceStartOptions, starting: Starting): Promise<void> {
    this.muted = options.muted ?? false;
    let microphone: Microphone;
    try {
      // Opens the audio context before any await, inside the click that called start().
      microphone = await openMicrophone({
        rate: options.inputSampleRate ?? DEFAULT_RATE,
        context: options.audioContext,
        processing: options.audioProcessing ?? true,
        onFrame: (pcm) => {
          // Audio goes once the server listens; muted, nothing goes.
          if (!this.muted && this.pending === null && this.inputRate !== null) this.sendAudio(pcm);
        },
      });
    } catch (error) {
      throw this.fail(starting.cancelled ?? error, starting.byPage);
    }
    if (starting.cancelled) {
      microphone.close();
      throw this.fail(starting.cancelled, starting.byPage);
    }
    this.microphone = microphone;
    microphone.setMuted(this.muted);
    this.player = new Player(microphone.context, (playing) => this.link.emit("voice.playing", playing));
    try {
      await this.open({ ...options, inputSampleRate: microphone.rate as VoiceSampleRate });
    } catch (error) {
      // Stopped meanwhile: stop() released it all (and a new start may be under way).
      if (starting.cancelled) throw this.fail(starting.cancelled, starting.byPage);
      this.release();
      throw this.fail(error);
    }
  }

  mute(): void {
    this.muted = true;
    this.microphone?.setMuted(true);
  }

  unmute(): void {
    this.muted = false;
    this.microphone?.setMuted(false);
  }

  /** A voice frame from the server. */
  receive(frame: VoiceServerFrame): void {
    switch (frame.type) {
      case "voice.state": {
        const session = this.sessions[0];
        // About a session the page stopped already (or none of this socket's): not news.
        if (!session) return;
        if (frame.state === "stopped") {
          this.sessions.shift();
          if (session.stopped) return;
          // The server ended it: a limit, the quota, the agent's voice turned off.
          this.release();
          this.pending?.reject(new VoiceError("server", "Voice stopped"));
          this.pending = null;
        } else {
          session.acknowledged = true;
          if (session.stopped) return;
          this.pending?.resolve();
          this.pending = null;
        }
        this.setState(frame.state);
        return;
      }
      case "voice.transcript": {
        const { type: _type, ...transcript } = frame;
        this.link.emit("voice.transcript", transcript);
        return;
      }
      case "voice.speech_started":
        // The visitor talks over the reply: silent at once. The server cuts it on the same signal,
        // and says so only while it is still sending (a reply whose audio has all arrived may still play).
        this.bargeIn();
        this.link.emit(frame.type, undefined);
        return;
      case "voice.speech_stopped":
        this.link.emit(frame.type, undefined);
        return;
      case "voice.audio.start":
        // The tail of a session the page stopped is not played.
        if (this.sessions[0]?.stopped !== false) return;
        this.current = frame.responseId;
        this.player?.begin(frame.responseId, frame.format.sampleRate);
        this.link.emit("voice.audio.start", { responseId: frame.responseId, format: frame.format });
        return;
      case "voice.audio.end":
        if (this.current === frame.responseId) this.current = null;
        if (this.player) {
          if (!frame.interrupted) this.player.finish(frame.responseId);
          // Barge-in: the page stops at once and says how much was heard (unless it cut the reply itself).
          else if (!this.cut.has(frame.responseId))
            this.link.post({
              type: "voice.interrupt",
              responseId: frame.responseId,
              playedMs: Math.round(this.player.cut(frame.responseId)),
            });
        }
        this.cut.delete(frame.responseId);
        this.link.emit("voice.audio.end", { responseId: frame.responseId, interrupted: frame.interrupted });
        return;
    }
  }

  /** A binary frame from the server: audio of the reply between voice.audio.start and .end. */
  receiveAudio(data: unknown): void {
    if (this.current === null) return;
    const pcm = toInt16(data);
    if (!pcm) return;
    this.player?.push(this.current, pcm);
    this.link.emit("voice.audio", { responseId: this.current, pcm });
  }

  /** An error frame: a refusal of voice.start is the answer to the oldest start not yet answered. */
  receiveError(frame: ErrorFrame): void {
    const session = this.sessions[0];
    if (!session || session.acknowledged || !refusesStart(frame)) return;
    this.sessions.shift();
    // A start the page stopped: it is off already (and that voice.stop gets no "stopped").
    if (session.stopped) return;
    this.pending?.reject(new VoiceError("server", frame.details ? `${frame.error}: ${frame.details}` : frame.error));
    this.pending = null;
    this.inputRate = null;
  }

  /** The socket closed: the server's voice session is gone with it. */
  disconnected(): void {
    const wasOn = this.inputRate !== null;
    this.cancelStart(new VoiceError("server", "The connection closed"), false);
    this.release();
    this.sessions = [];
    this.pending?.reject(new VoiceError("server", "The connection closed"));
    this.pending = null;
    if (wasOn) this.setState("stopped");
  }

  private cancelStart(reason: VoiceError, byPage: boolean): void {
    if (this.starting) Object.assign(this.starting, { cancelled: reason, byPage });
    this.starting = null;
  }

  private setState(state: VoiceState): void {
    this.state = state;
    this.link.emit("voice.state", state);
  }

  private release(): void {
    this.inputRate = null;
    this.current = null;
    this.cut.clear();
    this.player?.close();
    this.player = null;
    this.microphone?.close();
    this.microphone = null;
  }

  private fail(error: unknown, quiet = false): VoiceError {
    const failure = error instanceof VoiceError ? error : new VoiceError("failed", String(error));
    if (!quiet) this.link.emit("voice.error", { code: failure.code, message: failure.message });
    return failure;
  }
}

/** Binary frame data (ArrayBuffer in browsers and `ws` with binaryType "arraybuffer", or a view) as samples. */
function toInt16(data: unknown): Int16Array | null {
  let bytes: Uint8Array;
  if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else return null;
  // A copy: Int16Array needs an even offset, and listeners may keep it.
  const samples = new Int16Array(bytes.byteLength >> 1);
  new Uint8Array(samples.buffer).set(bytes.subarray(0, samples.byteLength));
  return samples;
}
