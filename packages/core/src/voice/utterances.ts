// The visitor's audio cut into utterances, at 16 kHz. With server VAD: speech starts after
// VOICE_MIN_SPEECH_MS of it (with VOICE_LEAD_IN_MS of audio before it kept, so the first word is
// not clipped) and ends after VOICE_END_OF_SPEECH_MS of silence. With push-to-talk: everything
// between two commits. Either way an utterance longer than the longest allowed is dropped, and in
// push-to-talk so is the rest of it, up to the next commit.
import { VOICE_END_OF_SPEECH_MS, VOICE_LEAD_IN_MS, VOICE_MIN_SPEECH_MS, VOICE_SPEECH_THRESHOLD } from "./limits.ts";
import { concatPcm, durationMs } from "./pcm.ts";
import { SPEECH_SAMPLE_RATE, type VoiceActivityDetector } from "./speech.ts";

export interface UtteranceEvents {
  speechStarted(): void;
  /** A whole utterance (server VAD: after its trailing silence; push-to-talk: at commit). */
  utterance(audio: Int16Array): void;
  /** The utterance grew past the longest allowed and was dropped. */
  tooLong(): void;
}

class Chunks {
  private chunks: Int16Array[] = [];
  samples = 0;

  push(pcm: Int16Array): void {
    this.chunks.push(pcm);
    this.samples += pcm.length;
  }

  /** Drops the oldest chunks while the rest still hold `keep` samples. */
  trimTo(keep: number): void {
    while (this.chunks.length > 1 && this.samples - (this.chunks[0]?.length ?? 0) >= keep) {
      this.samples -= this.chunks.shift()?.length ?? 0;
    }
  }

  concat(): Int16Array {
    return concatPcm(this.chunks);
  }

  ms(): number {
    return durationMs(this.samples, SPEECH_SAMPLE_RATE);
  }

  static of(...parts: Chunks[]): Chunks {
    const all = new Chunks();
    for (const part of parts) for (const chunk of part.chunks) all.push(chunk);
    return all;
  }
}

export class UtteranceDetector {
  private leadIn = new Chunks();
  /** Speech heard but not yet long enough to count. */
  private candidate: Chunks | null = null;
  private current: Chunks | null = null;
  private silenceMs = 0;
  /** Push-to-talk after an utterance too long: the rest of it is dropped until the next commit. */
  private discarding = false;

  constructor(
    private readonly vad: VoiceActivityDetector,
    private readonly pushToTalk: boolean,
    private readonly maxMs: number,
    private readonly events: UtteranceEvents,
  ) {}

  /** The visitor is in the middle of an utterance. */
  get speaking(): boolean {
    return this.current !== null;
  }

  push(pcm: Int16Array): void {
    if (this.pushToTalk) this.collect(pcm);
    else this.detect(pcm);
  }

  /** Push-to-talk: the utterance so far is whole. */
  commit(): void {
    const current = this.current;
    this.current = null;
    this.discarding = false;
    if (current && current.samples > 0) this.events.utterance(current.concat());
  }

  close(): void {
    this.vad.close();
  }

  private collect(pcm: Int16Array): void {
    if (this.discarding) return;
    this.current ??= new Chunks();
    this.grow(this.current, pcm);
  }

  private detect(pcm: Int16Array): void {
    const speech = this.vad.push(pcm).some((window) => window.speech >= VOICE_SPEECH_THRESHOLD);
    if (this.current) {
      if (!this.grow(this.current, pcm)) return;
      this.silenceMs = speech ? 0 : this.silenceMs + durationMs(pcm.length, SPEECH_SAMPLE_RATE);
      if (this.silenceMs < VOICE_END_OF_SPEECH_MS) return;
      const done = this.current;
      this.current = null;
      this.events.utterance(done.concat());
      return;
    }
    if (!speech) {
      // What seemed speech was too short: it becomes lead-in like the rest.
      if (this.candidate) this.leadIn = Chunks.of(this.leadIn, this.candidate);
      this.candidate = null;
      this.leadIn.push(pcm);
      this.leadIn.trimTo((SPEECH_SAMPLE_RATE * VOICE_LEAD_IN_MS) / 1000);
      return;
    }
    this.candidate ??= new Chunks();
    this.candidate.push(pcm);
    if (this.candidate.ms() < VOICE_MIN_SPEECH_MS) return;
    this.current = Chunks.of(this.leadIn, this.candidate);
    this.leadIn = new Chunks();
    this.candidate = null;
    this.silenceMs = 0;
    this.events.speechStarted();
  }

  /** Adds audio to the utterance; false when that made it too long (it is dropped). */
  private grow(utterance: Chunks, pcm: Int16Array): boolean {
    utterance.push(pcm);
    if (utterance.ms() <= this.maxMs) return true;
    this.current = null;
    this.discarding = this.pushToTalk;
    this.vad.reset();
    this.events.tooLong();
    return false;
  }
}
