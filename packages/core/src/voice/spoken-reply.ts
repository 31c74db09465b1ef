// One reply read aloud: the agent's text arrives in pieces (message.delta), is cut into sentences,
// each is synthesised in turn and sent as audio frames at the page's output rate as soon as it is
// ready (the page buffers and plays them in order). Keeps when each sentence starts in the audio,
// so a reply cut short can be stored as what the visitor actually heard.
import { randomUUID } from "node:crypto";
import { Marked, type Token } from "marked";
import { VOICE_OUTPUT_FRAME_MS } from "./limits.ts";
import { durationMs, pcmToBytes, resample } from "./pcm.ts";
import type { VoiceServerFrame } from "./protocol.ts";
import { SPEECH_SAMPLE_RATE, type TextToSpeech } from "./speech.ts";

export interface ReplySink {
  frame(frame: VoiceServerFrame): void;
  audio(bytes: Uint8Array): void;
  /** Synthesis failed: the reply is still shown as text. */
  failed(error: unknown): void;
}

interface SpokenSentence {
  text: string;
  startMs: number;
  durationMs: number;
}

/** The page starts playing a little after the first frame is sent (network, its buffer). */
const PLAYBACK_MARGIN_MS = 300;

/**
 * A sentence ends at . ! ? (with closing quotes or brackets) before a space, or at a line break;
 * not at the "3. " that numbers a list item (a piece "3." alone would be read out as a number).
 */
const SENTENCE_END = /(?<!(?:^|\n)[ \t]*\d{1,9})[.!?…]+["')\]]*\s+|\n+/g;

export class SpokenReply {
  readonly id = randomUUID();
  /** Aborted when the reply is cut short: stops the engine's writing and the synthesis. */
  readonly controller = new AbortController();
  /** Aborted when only the audio stops (voice ended): the engine writes on, the text is kept whole. */
  private readonly muted = new AbortController();
  /** Either of the two: no more audio. */
  private readonly silent = AbortSignal.any([this.controller.signal, this.muted.signal]);
  /** The stored agent message, once its turn is stored. */
  messageId: string | null = null;
  /** The agent's reply (cut short: the stored text becomes what was played); a person's is not. */
  storesCut = false;
  private pending = "";
  private readonly sentences: SpokenSentence[] = [];
  private chain: Promise<void> = Promise.resolve();
  private sentMs = 0;
  private audioStartedAt: number | null = null;
  private ended = false;

  constructor(
    private readonly tts: TextToSpeech,
    private readonly options: { voice: string; language: string; outputRate: number },
    private readonly sink: ReplySink,
    private readonly now: () => number = Date.now,
  ) {}

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Audio of it has been sent (the page may be playing it). */
  get audioStarted(): boolean {
    return this.audioStartedAt !== null;
  }

  /** Milliseconds of audio sent so far. */
  get audioMs(): number {
    return this.sentMs;
  }

  /** Being written, spoken, or played by the page (until voice.audio.end). */
  isPlaying(): boolean {
    return !this.silent.aborted && !this.ended;
  }

  /** A piece of the reply's text. */
  push(delta: string): void {
    if (this.silent.aborted) return;
    this.pending += delta;
    let end = 0;
    for (const match of this.pending.matchAll(SENTENCE_END)) end = (match.index ?? 0) + match[0].length;
    if (end === 0) return;
    this.speak(this.pending.slice(0, end));
    this.pending = this.pending.slice(end);
  }

  /**
   * The whole reply is written: speaks the rest, and resolves once the page has played it out (by
   * the clock) or it was cut short. voice.audio.end comes then, so a visitor who talks over any
   * part of the reply cuts it.
   */
  async finish(): Promise<void> {
    if (this.pending.trim()) this.speak(this.pending);
    this.pending = "";
    await this.chain;
    if (this.audioStartedAt !== null) await this.playedOut(this.audioStartedAt + this.sentMs + PLAYBACK_MARGIN_MS - this.now());
    if (!this.silent.aborted) this.end(false);
  }

  private playedOut(ms: number): Promise<void> {
    const signal = this.silent;
    if (ms <= 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done);
    });
  }

  /** Cut short (the visitor spoke, or the page asked): the engine and the audio stop at once. */
  interrupt(): void {
    if (this.interrupted) return;
    this.controller.abort();
    this.end(true);
  }

  /** Voice ended: the audio stops at once, but the engine finishes and its text is kept whole. */
  silence(): void {
    if (this.silent.aborted) return;
    this.muted.abort();
    this.end(true);
  }

  /** How much the page has played by the clock: the estimate when the page does not say. */
  estimatedPlayedMs(): number {
    if (this.audioStartedAt === null) return 0;
    return Math.min(this.sentMs, this.now() - this.audioStartedAt);
  }

  /** The words heard in the first `playedMs` of the audio (a sentence cut short: its share of words). */
  heardText(playedMs: number): string {
    const heard: string[] = [];
    for (const sentence of this.sentences) {
      if (sentence.startMs >= playedMs) break;
      const fraction = Math.min(1, (playedMs - sentence.startMs) / Math.max(1, sentence.durationMs));
      const words = sentence.text.split(/\s+/).filter(Boolean);
      heard.push(words.slice(0, Math.round(words.length * fraction)).join(" "));
    }
    return heard.filter(Boolean).join(" ");
  }

  /** Everything spoken (a reply played to its end). */
  spokenText(): string {
    return this.sentences.map((sentence) => sentence.text).join(" ");
  }

  private speak(markdown: string): void {
    const text = speakableText(markdown);
    if (!text) return;
    this.chain = this.chain.then(() => this.synthesise(text));
  }

  private async synthesise(text: string): Promise<void> {
    if (this.silent.aborted) return;
    let pcm: Int16Array;
    try {
      pcm = await this.tts.synthesize(text, { ...this.options, signal: this.silent });
    } catch (error) {
      if (!this.silent.aborted) this.sink.failed(error);
      return;
    }
    if (this.silent.aborted) return;
    const audio = resample(pcm, SPEECH_SAMPLE_RATE, this.options.outputRate);
    if (this.audioStartedAt === null) {
      this.audioStartedAt = this.now();
      this.sink.frame({
        type: "voice.audio.start",
        responseId: this.id,
        format: { encoding: "pcm16", sampleRate: this.options.outputRate },
      });
    }
    this.sentences.push({ text, startMs: this.sentMs, durationMs: durationMs(audio.length, this.options.outputRate) });
    const frameSamples = (this.options.outputRate * VOICE_OUTPUT_FRAME_MS) / 1000;
    for (let offset = 0; offset < audio.length; offset += frameSamples) {
      if (this.silent.aborted) return;
      this.sink.audio(pcmToBytes(audio.subarray(offset, offset + frameSamples)));
    }
    this.sentMs += durationMs(audio.length, this.options.outputRate);
  }

  private end(interrupted: boolean): void {
    if (this.ended) return;
    this.ended = true;
    if (this.audioStartedAt !== null) this.sink.frame({ type: "voice.audio.end", responseId: this.id, interrupted });
  }
}

const lexer = new Marked();

/**
 * Markdown as it is read aloud: the words only (link texts, list items, no marks, no addresses).
 * A list item or heading without closing punctuation ends with a full stop, so that steps are
 * read as sentences with a pause between them, not run together.
 */
export function speakableText(markdown: string): string {
  const words: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "image" || token.type === "html" || token.type === "hr") continue;
      const start = words.length;
      if ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0) walk(token.tokens);
      else if (token.type === "list") {
        // A list nested in an item starts after the item's own words.
        words.push(" ");
        walk(token.items);
      } else if ("text" in token && typeof token.text === "string") words.push(token.text);
      if (token.type === "heading" || token.type === "list_item") {
        const said = words.slice(start).join("").trimEnd();
        if (said !== "" && !/[.!?…:;,]["')\]]*$/.test(said)) words.push(".");
      }
      if (token.type === "paragraph" || token.type === "heading" || token.type === "list_item") words.push(" ");
    }
  };
  walk(lexer.lexer(markdown));
  return words
    .join("")
    .replace(/\[\d+\]/g, "")
    .replace(/https?:\/\/\S+/g, "")
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:!?])/g, "$1")
    .trim();
}
