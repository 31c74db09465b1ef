// The voice step: visitors talking to the demo agent over parley.v1 voice, on an app process of
// its own per engine setup (so its CPU time and memory are the voice's alone, and the main app's
// memory target is not the voice's): the embedded engines (Silero VAD, PocketSphinx, flite) and
// an OpenAI-compatible endpoint served by the bench itself (voice-endpoint.ts, fixed costs), which
// leaves Parley's own overhead. Per number of simultaneous sessions: the time from the end of the
// visitor's speech to the first byte of reply audio (p50, p99) and its parts, the app's CPU
// seconds per second of audio streamed (its process tree: PocketSphinx's processes count), and
// the largest number of sessions whose p99 stays under VOICE_P99_TARGET_MS. See bench/README.md.
import { cpus, loadavg } from "node:os";
import { seed } from "@parley/core/demo";
import { FliteTextToSpeech, PocketSphinxRecognizer } from "@parley/core/voice";
import type { Database } from "@parley/db";
import { RssSampler, type ServerProcess, treeCpuMs } from "@parley/testing/processes";
import { FRAME_MS, INPUT_RATE, runVoiceSession, type SessionOutcome, type SpokenQuestion, type TurnTiming } from "./voice-client.ts";
import { FAKE_SPEECH_MS_PER_CHAR, FAKE_TRANSCRIPTION_DELAY_MS, startFakeSpeechEndpoint } from "./voice-endpoint.ts";

/** A session holds while its p99 (end of speech to the first reply audio byte) stays under this. */
export const VOICE_P99_TARGET_MS = 1_500;
/** The demo agent (packages/core/src/demo/data.ts) and the page origin the bench allows it. */
const AGENT_ID = "demo";
const ORIGIN = "https://shop.bench.test";
/** Questions of the demo data's help centre, said by flite's default voice. */
export const VOICE_QUESTIONS = [
  "How do I reset my password",
  "How do I request a refund",
  "Where can I download my invoices",
  "How do I create an API key",
] as const;
/** Silence before each question (a visitor's pause), and the loudest sample that still counts as silence. */
const LEAD_IN_MS = 500;
const SPEECH_PEAK = 328; // 1% of full scale
/** Sessions stepped through: doubled until the p99 misses or this many (the app allows 100 per IP and agent by default x RATE_LIMIT_SCALE). */
const FULL_LEVELS = [1, 2, 4, 8, 16, 32, 64];
const QUICK_LEVELS = [1, 2];
/** Full run: turns measured at each level, at least, and at least this many per session. */
const FULL_MIN_TURNS = 12;
const FULL_TURNS_PER_SESSION = 2;
/**
 * Full run: how long a visitor listens to a reply before pressing stop. The demo agent reads whole
 * help sections (20 to 40 s of speech); listening to all of each would make a turn every 40 s or
 * so, a lighter load than visitors who have heard enough and ask on.
 */
export const VOICE_LISTEN_MS = 8_000;

export type VoiceSetup = "embedded" | "endpoint";

export interface VoiceLevel {
  sessions: number;
  turns: number;
  failures: number;
  /** The first few failures' texts. */
  failureTexts: string[];
  p50Ms: number;
  p99Ms: number;
  /** Medians of the parts, from the end of speech. */
  speechStoppedMs: number;
  transcriptMs: number;
  textMs: number;
  audioStartMs: number;
  /** Replies the visitors stopped after VOICE_LISTEN_MS (the others played out). */
  repliesStopped: number;
  audioSeconds: number;
  /** Wall-clock length of the level. */
  seconds: number;
  cpuSeconds: number;
  /** The app's process tree's CPU seconds per second of visitor audio streamed. */
  cpuPerAudioSecond: number;
  /** The same without what the idle app spends in as long (VoiceSetupResult.idleCpu): the voice's own. */
  voiceCpuPerAudioSecond: number;
  /** CPU seconds of the bench process (the visitors' clients and the fake endpoint) per second of the level: its share of the cores. */
  benchCpuShare: number;
  holds: boolean;
}

export interface VoiceSetupResult {
  setup: VoiceSetup;
  engines: string;
  /** Why this setup was not measured. */
  skipped?: string;
  levels: VoiceLevel[];
  /** The largest number of simultaneous sessions that held (0: not even one). */
  held: number;
  /** CPU seconds per second the app's process tree spends with no session (its timers, workers, collector); NaN: not measured. */
  idleCpu: number;
  /** The largest level tried: `held` may be more on a run that went further. */
  triedUpTo: number;
  rssPeakMb: number;
  /** The machine's 1-minute load average when the setup started and ended (others' work shows here). */
  load: [number, number];
  /** What the recogniser heard of each question in the warm-up turns (a check that it understands). */
  heard: string[];
}

export interface VoiceMeasurement {
  quick: boolean;
  cores: number;
  questions: readonly string[];
  setups: VoiceSetupResult[];
}

export interface VoiceStepOptions {
  db: Database;
  quick: boolean;
  /** Starts an app process (the bench's own settings) with these variables added; run.ts stops it on failure too. */
  startApp(name: string, env: Record<string, string>): Promise<{ url: string; server: ServerProcess }>;
  log(line: string): void;
}

/** The demo data, its agent with voice on and the bench's page origin allowed. */
async function prepareAgent(db: Database): Promise<void> {
  await seed(db, { adminEmail: "voice-bench@example.com", appOrigin: ORIGIN });
  await db.query(`UPDATE "Agent" SET "voiceEnabled" = true WHERE id = $1`, [AGENT_ID]);
}

/** The questions in flite's voice (the embedded synthesis, as the voice tests make theirs), in 40 ms frames. */
async function speakQuestions(): Promise<SpokenQuestion[]> {
  const flite = new FliteTextToSpeech();
  try {
    const spoken: SpokenQuestion[] = [];
    for (const text of VOICE_QUESTIONS) {
      const speech = await flite.synthesize(text, { voice: flite.voices[0]!, language: "en" });
      const lead = (INPUT_RATE * LEAD_IN_MS) / 1000;
      const samples = new Int16Array(lead + speech.length);
      samples.set(speech, lead);
      const perFrame = (INPUT_RATE * FRAME_MS) / 1000;
      const frames: Buffer[] = [];
      let lastSpeechFrame = 0;
      for (let offset = 0; offset < samples.length; offset += perFrame) {
        const frame = new Int16Array(perFrame);
        frame.set(samples.subarray(offset, offset + perFrame));
        if (frame.some((sample) => Math.abs(sample) > SPEECH_PEAK)) lastSpeechFrame = frames.length;
        frames.push(Buffer.from(frame.buffer));
      }
      spoken.push({ text, frames, lastSpeechFrame });
    }
    return spoken;
  } finally {
    await flite.close();
  }
}

/** The app's idle CPU: measured over this long after the warm-up, before the levels. */
const IDLE_MS = 5_000;

/** CPU seconds per second the process tree `pid` spends over `ms` with no session. */
async function idleCpuRate(pid: number, ms: number): Promise<number> {
  const before = treeCpuMs(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (treeCpuMs(pid) - before) / (performance.now() - started);
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Session `index`'s questions: the list rotated, so simultaneous sessions ask different ones. */
function questionsFor(questions: SpokenQuestion[], index: number, turns: number): SpokenQuestion[] {
  return Array.from({ length: turns }, (_, turn) => questions[(index + turn) % questions.length]!);
}

async function measureLevel(
  url: string,
  pid: number,
  questions: SpokenQuestion[],
  sessions: number,
  options: { quick: boolean; staggerMs: number; idleCpu: number },
): Promise<VoiceLevel> {
  const turnsPerSession = options.quick ? 1 : Math.max(FULL_TURNS_PER_SESSION, Math.ceil(FULL_MIN_TURNS / sessions));
  const cpuBefore = treeCpuMs(pid);
  const benchBefore = process.cpuUsage();
  const startedAt = performance.now();
  // Sessions start spread evenly over one turn's length, as visitors arriving independently would.
  const outcomes = await Promise.all(
    Array.from({ length: sessions }, async (_, index): Promise<SessionOutcome> => {
      await new Promise((resolve) => setTimeout(resolve, (index * options.staggerMs) / sessions));
      return runVoiceSession({
        url,
        origin: ORIGIN,
        agentId: AGENT_ID,
        questions: questionsFor(questions, index, turnsPerSession),
        listenMs: options.quick ? 0 : VOICE_LISTEN_MS,
      });
    }),
  );
  const cpuSeconds = (treeCpuMs(pid) - cpuBefore) / 1000;
  const seconds = (performance.now() - startedAt) / 1000;
  const bench = process.cpuUsage(benchBefore);
  const turns = outcomes.flatMap((outcome) => outcome.turns);
  const failures = outcomes.flatMap((outcome) => outcome.failures);
  const audioSeconds = outcomes.reduce((sum, outcome) => sum + outcome.audioMs, 0) / 1000;
  const median = (key: keyof Omit<TurnTiming, "heard">) =>
    percentile(
      turns.map((turn) => turn[key]),
      0.5,
    );
  const p99Ms = percentile(
    turns.map((turn) => turn.firstAudioMs),
    0.99,
  );
  return {
    sessions,
    turns: turns.length,
    failures: failures.length,
    failureTexts: [...new Set(failures)].slice(0, 3),
    p50Ms: median("firstAudioMs"),
    p99Ms,
    speechStoppedMs: median("speechStoppedMs"),
    transcriptMs: median("transcriptMs"),
    textMs: median("textMs"),
    audioStartMs: median("audioStartMs"),
    repliesStopped: outcomes.reduce((sum, outcome) => sum + outcome.repliesStopped, 0),
    audioSeconds,
    seconds,
    cpuSeconds,
    cpuPerAudioSecond: audioSeconds > 0 ? cpuSeconds / audioSeconds : Number.NaN,
    voiceCpuPerAudioSecond: audioSeconds > 0 ? Math.max(0, cpuSeconds - options.idleCpu * seconds) / audioSeconds : Number.NaN,
    benchCpuShare: (bench.user + bench.system) / 1e6 / seconds,
    holds: failures.length === 0 && turns.length > 0 && p99Ms < VOICE_P99_TARGET_MS,
  };
}

async function measureSetup(
  setup: VoiceSetup,
  engines: string,
  env: Record<string, string>,
  questions: SpokenQuestion[],
  options: VoiceStepOptions,
): Promise<VoiceSetupResult> {
  const loadAtStart = loadavg()[0]!;
  const { url, server } = await options.startApp(`voice-${setup}`, env);
  const sampler = new RssSampler(server.pid);
  const wsUrl = `${url.replace(/^http/, "ws")}/ws`;
  try {
    // Warm-up, not counted: one turn of each question, one session (loads the VAD model, starts
    // the recogniser's processes and the synthesis worker, loads the app's code paths).
    const started = performance.now();
    const warmUp = await runVoiceSession({
      url: wsUrl,
      origin: ORIGIN,
      agentId: AGENT_ID,
      questions: options.quick ? questions.slice(0, 1) : questions,
      listenMs: options.quick ? 0 : VOICE_LISTEN_MS,
    });
    if (warmUp.turns.length === 0) {
      const skipped = `its warm-up failed: ${warmUp.failures.join("; ")}`;
      options.log(`voice ${setup}: ${skipped} (bench/results/voice-${setup}.log has the app's side)`);
      return {
        setup,
        engines,
        skipped,
        levels: [],
        held: 0,
        idleCpu: 0,
        triedUpTo: 0,
        rssPeakMb: sampler.overallPeakMb(),
        load: [loadAtStart, loadavg()[0]!],
        heard: [],
      };
    }
    // One turn's length (question, reply, listening), over which simultaneous sessions' starts are
    // spread; the quick run starts its two at once (it keeps the harness working, in little time).
    const turnMs = (performance.now() - started) / Math.max(1, warmUp.turns.length + warmUp.failures.length);
    const staggerMs = options.quick ? 0 : turnMs;
    options.log(
      `voice ${setup}: warm-up heard ${warmUp.turns.map((turn) => JSON.stringify(turn.heard)).join(", ")}; a turn takes ${(turnMs / 1000).toFixed(1)} s`,
    );
    // What the app spends with nobody talking, so each level's CPU can be told apart from it (not
    // in a quick run: its seconds are few).
    const idleCpu = options.quick ? Number.NaN : await idleCpuRate(server.pid, IDLE_MS);
    const levels: VoiceLevel[] = [];
    for (const sessions of options.quick ? QUICK_LEVELS : FULL_LEVELS) {
      sampler.resetPeak();
      const level = await measureLevel(wsUrl, server.pid, questions, sessions, { quick: options.quick, staggerMs, idleCpu });
      levels.push(level);
      options.log(
        `voice ${setup}, ${sessions} session(s): ${level.turns} turns, ${level.failures} failed; end of speech -> first audio p50 ${level.p50Ms.toFixed(0)} ms, p99 ${level.p99Ms.toFixed(0)} ms; CPU ${level.cpuPerAudioSecond.toFixed(3)} s per audio s${Number.isNaN(level.voiceCpuPerAudioSecond) ? "" : ` (${level.voiceCpuPerAudioSecond.toFixed(3)} above idle)`}; the bench's own CPU ${level.benchCpuShare.toFixed(2)} of a core; RSS peak ${sampler.peakMb().toFixed(0)} MB${level.failureTexts.length > 0 ? `; ${level.failureTexts.join("; ")}` : ""}`,
      );
      // The next level only adds load: once one misses, the run moves on (the quick run tries both).
      if (!level.holds && !options.quick) break;
    }
    let held = 0;
    for (const level of levels) {
      if (!level.holds) break;
      held = level.sessions;
    }
    return {
      setup,
      engines,
      levels,
      held,
      idleCpu,
      triedUpTo: levels.at(-1)?.sessions ?? 0,
      rssPeakMb: sampler.overallPeakMb(),
      load: [loadAtStart, loadavg()[0]!],
      heard: warmUp.turns.map((turn) => turn.heard),
    };
  } finally {
    sampler.stop();
    await server.stop();
  }
}

export async function measureVoice(options: VoiceStepOptions): Promise<VoiceMeasurement> {
  await prepareAgent(options.db);
  const questions = await speakQuestions();
  const setups: VoiceSetupResult[] = [];
  const embedded = "Silero VAD + PocketSphinx + flite";
  if (PocketSphinxRecognizer.available()) {
    setups.push(
      await measureSetup("embedded", embedded, { SPEECH_RECOGNITION: "pocketsphinx", SPEECH_SYNTHESIS: "flite" }, questions, options),
    );
  } else {
    const skipped = "PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)";
    options.log(`voice embedded: skipped, ${skipped}`);
    setups.push({
      setup: "embedded",
      engines: embedded,
      skipped,
      levels: [],
      held: 0,
      idleCpu: 0,
      triedUpTo: 0,
      rssPeakMb: 0,
      load: [0, 0],
      heard: [],
    });
  }
  const endpoint = await startFakeSpeechEndpoint();
  try {
    setups.push(
      await measureSetup(
        "endpoint",
        `Silero VAD + OpenAI-compatible endpoint (bench's fake: transcription ${FAKE_TRANSCRIPTION_DELAY_MS} ms, speech ${FAKE_SPEECH_MS_PER_CHAR} ms of audio per character at once)`,
        {
          SPEECH_BASE_URL: endpoint.baseUrl,
          SPEECH_API_KEY: "bench-not-a-key",
          SPEECH_RECOGNITION: "endpoint",
          SPEECH_SYNTHESIS: "endpoint",
        },
        questions,
        options,
      ),
    );
  } finally {
    await endpoint.close();
  }
  return { quick: options.quick, cores: cpus().length, questions: VOICE_QUESTIONS, setups };
}
