// One visitor of the voice step: a `ws` client speaking parley.v1 to the app's /ws as a page in
// voice mode does. It streams 16 kHz PCM16 in 40 ms frames at real time, from voice.start to the
// end (silence between and after its questions, as an open microphone does), and times each turn
// from the end of its speech: the moment the frame holding the last of its speech was sent.
import type { ServerFrame } from "@parley/core/widget";
import { WebSocket } from "ws";

/** Frame length and rate of what is streamed (a page's microphone mode sends 40 ms at 16 kHz). */
export const FRAME_MS = 40;
export const INPUT_RATE = 16_000;
/** The rate a page asks for its replies in. */
export const OUTPUT_RATE = 24_000;
const FRAME_BYTES = ((INPUT_RATE * FRAME_MS) / 1000) * 2;
const SILENCE = Buffer.alloc(FRAME_BYTES);

/** A question as audio, cut into frames. */
export interface SpokenQuestion {
  text: string;
  /** 40 ms frames of PCM16LE: silence before the question, then the question. */
  frames: Buffer[];
  /** The last frame holding speech (its loudest sample above SPEECH_PEAK): the end of speech. */
  lastSpeechFrame: number;
}

/** A turn, in ms from the end of the visitor's speech to the first frame of each kind the app sent. */
export interface TurnTiming {
  heard: string;
  speechStoppedMs: number;
  transcriptMs: number;
  /** The first message.delta or message of the reply. */
  textMs: number;
  audioStartMs: number;
  /** The first binary frame after voice.audio.start. */
  firstAudioMs: number;
}

export interface SessionOutcome {
  turns: TurnTiming[];
  failures: string[];
  /** Audio streamed to the app (ms). */
  audioMs: number;
  /** Replies the visitor stopped after listenMs (voice.interrupt), the others having played out. */
  repliesStopped: number;
}

export interface SessionPlan {
  url: string;
  origin: string;
  agentId: string;
  questions: SpokenQuestion[];
  /**
   * Listen to each reply (streaming silence, as an open microphone does) until it has played out
   * (voice.audio.end: the app's clock says the page played it) or for this long from its first
   * audio byte, then stop it as the page's stop button does (voice.interrupt with the ms played),
   * before the next question and before leaving. 0: a turn ends once its first reply audio and
   * text have arrived (the quick run).
   */
  listenMs: number;
}

/** The first reply audio byte must come within this of the end of speech. */
const FIRST_AUDIO_TIMEOUT_MS = 30_000;
/** voice.audio.end must come within this of the reply's end as the visitor heard it. */
const END_TIMEOUT_MS = 15_000;

type Times = Partial<Omit<TurnTiming, "heard">> & { heard?: string };

class Turn {
  endAt: number | undefined;
  times: Times = {};
  responseId: string | undefined;
  ended = false;
  /** When the visitor pressed stop (voice.interrupt). */
  stoppedAt: number | undefined;
  failure: string | undefined;

  mark(key: keyof Omit<TurnTiming, "heard">): void {
    if (this.endAt !== undefined && this.times[key] === undefined) this.times[key] = performance.now() - this.endAt;
  }

  get firstAudioAt(): number | undefined {
    return this.endAt === undefined || this.times.firstAudioMs === undefined ? undefined : this.endAt + this.times.firstAudioMs;
  }

  done(listenMs: number): boolean {
    if (this.failure) return true;
    if (listenMs > 0) return this.ended;
    return this.times.firstAudioMs !== undefined && this.times.textMs !== undefined;
  }

  /** Why the turn has waited too long, if it has. */
  overdue(now: number, listenMs: number): string | undefined {
    const firstAudioAt = this.firstAudioAt;
    if (firstAudioAt === undefined) {
      return now - this.endAt! > FIRST_AUDIO_TIMEOUT_MS
        ? `no reply audio within ${FIRST_AUDIO_TIMEOUT_MS} ms of the end of speech`
        : undefined;
    }
    if (now - (this.stoppedAt ?? firstAudioAt + listenMs) > END_TIMEOUT_MS) return "no voice.audio.end for a reply played or stopped";
    return undefined;
  }

  timing(): TurnTiming | string {
    const t = this.times;
    if (
      t.speechStoppedMs === undefined ||
      t.transcriptMs === undefined ||
      t.textMs === undefined ||
      t.audioStartMs === undefined ||
      t.firstAudioMs === undefined
    ) {
      return `a turn missed frames: ${JSON.stringify(t)}`;
    }
    return { ...(t as Required<Omit<Times, "heard">>), heard: t.heard ?? "" };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects, says hello, starts voice, asks each question in turn, stops and closes. */
export async function runVoiceSession(plan: SessionPlan): Promise<SessionOutcome> {
  const outcome: SessionOutcome = { turns: [], failures: [], audioMs: 0, repliesStopped: 0 };
  const ws = new WebSocket(plan.url, ["parley.v1"], { origin: plan.origin });
  let turn: Turn | undefined;
  const waiters = new Set<() => void>();
  const seen: ServerFrame[] = [];
  ws.on("message", (data, isBinary) => {
    if (isBinary) {
      if (turn?.times.audioStartMs !== undefined) turn.mark("firstAudioMs");
      return;
    }
    const frame = JSON.parse(String(data)) as ServerFrame;
    seen.push(frame);
    for (const wake of waiters) wake();
    if (!turn) return;
    switch (frame.type) {
      case "voice.speech_stopped":
        if (turn.endAt === undefined) turn.failure = "the app heard the end of speech before the question ended";
        turn.mark("speechStoppedMs");
        break;
      case "voice.transcript":
        if (frame.role === "user") {
          turn.mark("transcriptMs");
          turn.times.heard ??= frame.text;
        }
        break;
      case "message.delta":
        turn.mark("textMs");
        break;
      case "message":
        if (frame.role === "agent") turn.mark("textMs");
        break;
      case "voice.audio.start":
        turn.mark("audioStartMs");
        turn.responseId ??= frame.responseId;
        break;
      case "voice.audio.end":
        if (frame.responseId !== turn.responseId) break;
        turn.ended = true;
        if (frame.interrupted && turn.stoppedAt === undefined) turn.failure = "the app cut the reply short";
        break;
      case "error":
        turn.failure = `error frame: ${frame.error}${frame.details ? ` (${frame.details})` : ""}`;
        break;
    }
  });
  const next = (type: ServerFrame["type"], timeoutMs: number) =>
    new Promise<ServerFrame>((resolve, reject) => {
      const check = () => {
        const frame = seen.find((candidate) => candidate.type === type || candidate.type === "error");
        if (!frame) return;
        waiters.delete(check);
        clearTimeout(timer);
        if (frame.type === "error") reject(new Error(`${frame.error}${frame.details ? ` (${frame.details})` : ""}`));
        else resolve(frame);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${type} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ type: "hello", agentId: plan.agentId }));
    await next("ready", 15_000);
    seen.length = 0;
    ws.send(
      JSON.stringify({
        type: "voice.start",
        input: { encoding: "pcm16", sampleRate: INPUT_RATE },
        output: { encoding: "pcm16", sampleRate: OUTPUT_RATE },
        turnDetection: "server_vad",
        language: "en",
      }),
    );
    const listening = await next("voice.state", 15_000);
    if (listening.type !== "voice.state" || listening.state !== "listening")
      throw new Error(`voice.start answered ${JSON.stringify(listening)}`);

    // One clock for the whole session: frame k leaves at start + k * 40 ms (late frames catch up).
    let sendAt = performance.now();
    const send = async (frame: Buffer) => {
      const wait = sendAt - performance.now();
      if (wait > 1) await sleep(wait);
      sendAt += FRAME_MS;
      if (ws.readyState !== WebSocket.OPEN) throw new Error("the app closed the connection");
      ws.send(frame);
      outcome.audioMs += FRAME_MS;
    };
    for (const question of plan.questions) {
      const current = new Turn();
      turn = current;
      for (let index = 0; index < question.frames.length; index++) {
        await send(question.frames[index]!);
        if (index === question.lastSpeechFrame) current.endAt = performance.now();
      }
      while (!current.done(plan.listenMs)) {
        const now = performance.now();
        current.failure = current.overdue(now, plan.listenMs);
        if (current.failure) break;
        const firstAudioAt = current.firstAudioAt;
        if (plan.listenMs > 0 && firstAudioAt !== undefined && current.stoppedAt === undefined && now - firstAudioAt >= plan.listenMs) {
          current.stoppedAt = now;
          outcome.repliesStopped++;
          ws.send(JSON.stringify({ type: "voice.interrupt", responseId: current.responseId, playedMs: Math.round(now - firstAudioAt) }));
        }
        await send(SILENCE);
      }
      const timing = current.timing();
      if (current.failure) outcome.failures.push(current.failure);
      else if (typeof timing === "string") outcome.failures.push(timing);
      else outcome.turns.push(timing);
      // After a failure the reply may still be playing: the next question would cut it short.
      if (current.failure) break;
    }
    turn = undefined;
    ws.send(JSON.stringify({ type: "voice.stop" }));
  } catch (error) {
    outcome.failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    ws.close();
  }
  return outcome;
}
