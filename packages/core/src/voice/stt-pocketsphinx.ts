// Speech recognition with no service: CMU PocketSphinx as Debian packages it (pocketsphinx,
// pocketsphinx-en-us; BSD-2-Clause). Loading the model takes about a second, so each process lives
// long and is fed raw 16 kHz PCM on stdin (`-infile /dev/stdin`), where it decodes at ~0.15x real
// time. Its stdin is a FIFO, not Node's usual socket pair: the program opens /dev/stdin by name,
// which fails on a socket. It has no "end of input" short of closing stdin, only its own
// endpointer, which prints a hypothesis when it hears 0.3 s of silence after speech. So each
// utterance is written as
//
//   [utterance][0.7 s silence][marker: its loudest 0.3 s again][0.5 s silence][zeros to a whole read]
//
// The silence closes the utterance (in as many pieces as its own pauses make); the marker wakes the
// endpointer again, so exactly one more hypothesis follows, and that one says "done". With
// `-time yes` every hypothesis is followed by its words' times in seconds from the start of the
// stream: a hypothesis starting before the marker is the utterance's, the one at the marker ends it.
// One utterance at a time per process; at most `maxProcesses` processes (lazily started).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pcmToBytes } from "./pcm.ts";
import { SPEECH_SAMPLE_RATE, type SpeechToText, type Transcript } from "./speech.ts";

export const POCKETSPHINX_BINARY = "/usr/bin/pocketsphinx_continuous";
export const POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

export interface PocketSphinxOptions {
  binary?: string;
  /** Holds en-us/ (acoustic model), en-us.lm.bin and cmudict-en-us.dict, as pocketsphinx-en-us installs them. */
  modelDir?: string;
  /** Processes decoding at once (each holds ~100 MB). Default 2. */
  maxProcesses?: number;
  /** The processes end after this long without an utterance (started again on the next). Default 5 minutes. */
  idleMs?: number;
}

export const POCKETSPHINX_IDLE_MS = 5 * 60_000;
/** Utterances waiting per process before new ones are refused. */
const QUEUED_PER_PROCESS = 4;

/** Frames of silence (10 ms) after speech before the endpointer closes an utterance. */
const POSTSPEECH_FRAMES = 30;
const SILENCE_AFTER_SAMPLES = 0.7 * SPEECH_SAMPLE_RATE;
const MARKER_SAMPLES = 0.3 * SPEECH_SAMPLE_RATE;
const SILENCE_AFTER_MARKER_SAMPLES = 0.5 * SPEECH_SAMPLE_RATE;
/** The program reads stdin 2048 samples at a time and waits for a whole read. */
const READ_SAMPLES = 2048;
/** A hypothesis that starts this close to the marker (its pre-speech frames) is the marker's. */
const MARKER_SLACK_SECONDS = 0.3;

/** 10 ms at 16 kHz: the unit the marker is chosen in. */
const FRAME_SAMPLES = 160;
/** Below this RMS (about -56 dBFS) over its loudest 0.3 s, an utterance is silence. */
const SILENT_RMS = 50;

/**
 * The marker: the utterance's own loudest 0.3 s, or undefined when even that is silence. Its own
 * audio rather than a fixed sound because the program adapts its cepstral mean to everything it
 * hears: a foreign sound (noise was tried) heard before any speech spoils the next utterance,
 * while a piece of the same voice and channel changes nothing.
 */
function markerOf(audio: Int16Array): Int16Array | undefined {
  const frames = Math.floor(audio.length / FRAME_SAMPLES);
  const width = MARKER_SAMPLES / FRAME_SAMPLES;
  if (frames < width) return rms(audio) < SILENT_RMS ? undefined : audio;
  const energy = new Float64Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    for (let i = frame * FRAME_SAMPLES; i < (frame + 1) * FRAME_SAMPLES; i++) energy[frame]! += audio[i]! * audio[i]!;
  }
  let sum = 0;
  for (let frame = 0; frame < width; frame++) sum += energy[frame]!;
  let best = sum;
  let bestStart = 0;
  for (let frame = width; frame < frames; frame++) {
    sum += energy[frame]! - energy[frame - width]!;
    if (sum > best) {
      best = sum;
      bestStart = frame - width + 1;
    }
  }
  if (Math.sqrt(best / MARKER_SAMPLES) < SILENT_RMS) return undefined;
  return audio.subarray(bestStart * FRAME_SAMPLES, bestStart * FRAME_SAMPLES + MARKER_SAMPLES);
}

function rms(audio: Int16Array): number {
  let sum = 0;
  for (const sample of audio) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, audio.length));
}

/** "word 1.230 1.450 0.998": a word of the last hypothesis with its start and end (seconds). */
const WORD_TIME_LINE = /^\S+ (\d+\.\d+) \d+\.\d+ \S+$/;

interface Job {
  audio: Int16Array;
  marker: Int16Array;
  resolve(transcript: Transcript): void;
  reject(error: unknown): void;
  /** The caller stopped waiting: the process still finishes the job, and the answer is dropped. */
  abandoned: boolean;
  /** Processes that died while decoding it: it is tried again while that could be a stale one of the pool. */
  crashes: number;
}

export class PocketSphinxRecognizer implements SpeechToText {
  readonly name = "pocketsphinx";
  private readonly binary: string;
  private readonly modelDir: string;
  private readonly maxProcesses: number;
  private readonly idleMs: number;
  private readonly processes: SphinxProcess[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  /** Ends the processes after a quiet spell: ~105 MB each is not kept for voice that has stopped. */
  private idleTimer: NodeJS.Timeout | null = null;

  /** Whether the program and the English model are installed. */
  static available(options: Pick<PocketSphinxOptions, "binary" | "modelDir"> = {}): boolean {
    const modelDir = options.modelDir ?? POCKETSPHINX_MODEL_DIR;
    return existsSync(options.binary ?? POCKETSPHINX_BINARY) && existsSync(path.join(modelDir, "en-us", "mdef"));
  }

  constructor(options: PocketSphinxOptions = {}) {
    this.binary = options.binary ?? POCKETSPHINX_BINARY;
    this.modelDir = options.modelDir ?? POCKETSPHINX_MODEL_DIR;
    this.maxProcesses = Math.max(1, options.maxProcesses ?? 2);
    this.idleMs = options.idleMs ?? POCKETSPHINX_IDLE_MS;
  }

  supports(language: string): boolean {
    return /^en(?:[-_]|$)/i.test(language);
  }

  async transcribe(audio: Int16Array, options: { language: string; signal?: AbortSignal }): Promise<Transcript> {
    if (!this.supports(options.language)) throw new Error(`PocketSphinx recognises English only, not "${options.language}"`);
    if (this.closed) throw new Error("PocketSphinx was closed");
    // Past a few utterances a process, waiting is worse than being told to try again.
    if (this.queue.length >= this.maxProcesses * QUEUED_PER_PROCESS) throw new Error("PocketSphinx is busy");
    const signal = options.signal;
    signal?.throwIfAborted();
    const marker = markerOf(audio);
    if (!marker) return { text: "" };
    return new Promise<Transcript>((resolve, reject) => {
      const onAbort = () => {
        job.abandoned = true;
        const queued = this.queue.indexOf(job);
        if (queued >= 0) this.queue.splice(queued, 1);
        reject(signal!.reason);
      };
      const job: Job = {
        audio,
        marker,
        abandoned: false,
        crashes: 0,
        resolve: (transcript) => {
          signal?.removeEventListener("abort", onAbort);
          if (!job.abandoned) resolve(transcript);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          if (!job.abandoned) reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Ends the processes; waiting calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const job of this.queue.splice(0)) job.reject(new Error("PocketSphinx was closed"));
    await Promise.all(this.processes.splice(0).map((process) => process.kill()));
  }

  private dispatch(): void {
    if (this.queue.length === 0) this.stopWhenIdle();
    while (this.queue.length > 0) {
      let idle = this.processes.find((process) => process.idle);
      if (!idle && this.processes.length < this.maxProcesses) {
        try {
          idle = this.spawn();
        } catch (error) {
          // No FIFO could be made (no mkfifo, no temporary directory): nothing queued can run.
          for (const job of this.queue.splice(0)) job.reject(error);
          return;
        }
      }
      if (!idle) return;
      const job = this.queue.shift()!;
      idle.run(job, () => this.dispatch());
    }
  }

  private stopWhenIdle(): void {
    if (this.idleTimer || this.processes.length === 0 || this.processes.some((process) => !process.idle)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.queue.length === 0) for (const process of this.processes.splice(0)) void process.kill();
    }, this.idleMs);
    this.idleTimer.unref?.();
  }

  private spawn(): SphinxProcess {
    const spawned = new SphinxProcess(this.binary, this.modelDir, (process, job, error) => {
      const index = this.processes.indexOf(process);
      if (index >= 0) this.processes.splice(index, 1);
      // A process can die between utterances unnoticed until the next is written to it, and so can
      // every process of the pool at once; more crashes than that are the utterance's doing.
      if (job && !job.abandoned && !this.closed && ++job.crashes <= this.maxProcesses) this.queue.unshift(job);
      else job?.reject(error);
      this.dispatch();
    });
    this.processes.push(spawned);
    return spawned;
  }
}

/** One long-lived pocketsphinx_continuous and the utterance it is decoding. */
class SphinxProcess {
  private readonly child: ChildProcess;
  private readonly input: Socket;
  private job: { job: Job; markerStart: number; texts: string[]; timer: NodeJS.Timeout; done: () => void } | undefined;
  /** Samples written so far: the stream's clock, which the word times count from. */
  private written = 0;
  /** A hypothesis line waiting for its first word time, which tells whose it is. */
  private hypothesis: string | undefined;
  private partialLine = "";
  private stderrTail = "";
  private exited = false;
  /** Being killed: gets no more work. */
  private killed = false;

  constructor(
    binary: string,
    modelDir: string,
    private readonly onExit: (process: SphinxProcess, job: Job | undefined, error: Error) => void,
  ) {
    // A FIFO with both ends open (non-blocking, so neither open waits for the other) and its name
    // removed at once: the child gets the read end, this process keeps the write end. When the child
    // dies, writes fail (EPIPE); when this process dies, the child reads the end of its input and exits.
    const dir = mkdtempSync(path.join(tmpdir(), "parley-sphinx-"));
    let readEnd: number;
    let writeEnd: number;
    try {
      const fifo = path.join(dir, "audio");
      execFileSync("mkfifo", ["-m", "600", fifo]);
      readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      writeEnd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    this.child = spawn(
      binary,
      [
        ...["-infile", "/dev/stdin", "-time", "yes", "-vad_postspeech", String(POSTSPEECH_FRAMES)],
        ...[
          "-hmm",
          path.join(modelDir, "en-us"),
          "-lm",
          path.join(modelDir, "en-us.lm.bin"),
          "-dict",
          path.join(modelDir, "cmudict-en-us.dict"),
        ],
      ],
      { stdio: [readEnd, "pipe", "pipe"] },
    );
    closeSync(readEnd);
    this.input = new Socket({ fd: writeEnd, readable: false, writable: true });
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => this.onOutput(chunk));
    // Its log goes to stderr (a few KB an utterance): read and keep the end for error messages.
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2_000);
    });
    // Writes after a crash fail with EPIPE; the exit handler reports the crash.
    this.input.on("error", () => {});
    this.child.on("error", (error) => this.exit(`could not be started (${error.message})`));
    this.child.on("exit", (code, signal) => this.exit(signal ? `was ended by ${signal}` : `exited with code ${code}`));
    this.setKeepAlive(false);
  }

  get idle(): boolean {
    return !this.exited && !this.killed && !this.job;
  }

  run(job: Job, done: () => void): void {
    const samples = job.audio.length + SILENCE_AFTER_SAMPLES + job.marker.length + SILENCE_AFTER_MARKER_SAMPLES;
    const padded = Math.ceil(samples / READ_SAMPLES) * READ_SAMPLES;
    const stream = new Int16Array(padded);
    stream.set(job.audio);
    const markerAt = job.audio.length + SILENCE_AFTER_SAMPLES;
    stream.set(job.marker, markerAt);
    // Decoding runs at ~0.15x real time; 1x real time plus a few seconds means something is wrong.
    const limitMs = 5_000 + (padded * 1_000) / SPEECH_SAMPLE_RATE;
    const timer = setTimeout(() => {
      void this.kill();
      this.finish(new Error(`PocketSphinx gave no answer within ${Math.round(limitMs)} ms`));
    }, limitMs);
    this.job = { job, markerStart: (this.written + markerAt) / SPEECH_SAMPLE_RATE, texts: [], timer, done };
    this.written += padded;
    this.setKeepAlive(true);
    this.input.write(pcmToBytes(stream));
  }

  kill(): Promise<void> {
    if (this.exited) return Promise.resolve();
    this.killed = true;
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve());
      // Whoever awaits this needs the exit event, so the process must hold the event loop again.
      this.setKeepAlive(true);
      this.child.kill("SIGKILL");
    });
  }

  private onOutput(chunk: string): void {
    const lines = (this.partialLine + chunk).split("\n");
    this.partialLine = lines.pop()!;
    for (const line of lines) {
      const time = WORD_TIME_LINE.exec(line);
      if (!time) {
        this.hypothesis = line.trim();
        continue;
      }
      // Only a hypothesis's first word time matters: it says where the hypothesis began.
      if (this.hypothesis === undefined || !this.job) continue;
      const hypothesis = this.hypothesis;
      this.hypothesis = undefined;
      if (Number(time[1]) < this.job.markerStart - MARKER_SLACK_SECONDS) {
        if (hypothesis) this.job.texts.push(hypothesis);
      } else {
        this.finish({ text: asSentence(this.job.texts.join(" ")) });
      }
    }
  }

  private finish(outcome: Transcript | Error): void {
    const current = this.job;
    if (!current) return;
    this.job = undefined;
    clearTimeout(current.timer);
    this.setKeepAlive(false);
    if (outcome instanceof Error) current.job.reject(outcome);
    else current.job.resolve(outcome);
    current.done();
  }

  private exit(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.input.destroy();
    const log = this.stderrTail.trim().split("\n").slice(-3).join(" | ");
    const current = this.job;
    this.job = undefined;
    if (current) clearTimeout(current.timer);
    this.setKeepAlive(false);
    this.onExit(this, current?.job, new Error(`PocketSphinx ${reason}${log ? `: ${log}` : ""}`));
  }

  /** An idle process does not hold the Node process open (it ends with it: its input closes). */
  private setKeepAlive(keep: boolean): void {
    // The pipes are sockets underneath (with ref and unref), typed only as streams.
    const handles = [this.child, this.input, this.child.stdout, this.child.stderr] as unknown as { ref?(): void; unref?(): void }[];
    for (const handle of handles) {
      if (keep) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** Words that open a question when they come first ("how do i…", "can you…"). */
const QUESTION_OPENING =
  /^(how|what|why|where|when|who|whom|whose|which|can|could|do|does|did|is|are|was|were|will|would|should|shall|may|might|have|has|had)\b/;

/**
 * PocketSphinx gives bare lowercase words: written as a sentence for the conversation (capital
 * first letter, "I", a question mark after a question's opening word, else a full stop).
 */
export function asSentence(words: string): string {
  const text = words.trim().replace(/\s+/g, " ").replace(/\bi\b/g, "I");
  if (!text) return "";
  return `${text[0]?.toUpperCase()}${text.slice(1)}${QUESTION_OPENING.test(text) ? "?" : "."}`;
}
