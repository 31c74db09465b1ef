// The speech engines a voice session uses, behind one interface: voice activity detection,
// speech-to-text and text-to-speech. Audio inside core is always 16 kHz mono PCM16 (Int16Array);
// the session converts the page's rates at its edges (pcm.ts).

/** The rate every engine below reads and writes. */
export const SPEECH_SAMPLE_RATE = 16_000;

/** One decision per window of audio fed to a detector. */
export interface VadWindow {
  /** Samples of this window (16 kHz). */
  samples: number;
  /** Probability (0..1) that the window holds speech. */
  speech: number;
}

/** A stateful detector for one audio stream (one per voice session). */
export interface VoiceActivityDetector {
  /** Feeds audio; returns the decisions of every window completed by it, in order. */
  push(audio: Int16Array): VadWindow[];
  /** Forgets the stream's state (a new utterance after a reset). */
  reset(): void;
  close(): void;
}

export interface Transcript {
  text: string;
}

export interface SpeechToText {
  /** A name for logs and the panel ("pocketsphinx", "openai-compatible"). */
  readonly name: string;
  /** Whether it understands a language (a BCP 47 tag); absent: any. */
  supports?(language: string): boolean;
  /** One finished utterance (16 kHz, with its lead-in), transcribed. Empty text: nothing recognised. */
  transcribe(audio: Int16Array, options: { language: string; signal?: AbortSignal }): Promise<Transcript>;
}

export interface TextToSpeech {
  readonly name: string;
  /** Whether it speaks a language (a BCP 47 tag); absent: any. */
  supports?(language: string): boolean;
  /** Voices it offers (the agent's setting picks one); the first is the default. */
  readonly voices: readonly string[];
  /** One sentence (or short paragraph) spoken: 16 kHz PCM16. */
  synthesize(text: string, options: { voice: string; language: string; signal?: AbortSignal }): Promise<Int16Array>;
}

export interface SpeechEngines {
  vad(): VoiceActivityDetector;
  /** Null: no recognition on this instance (no endpoint, PocketSphinx not installed); voice cannot start. */
  stt: SpeechToText | null;
  tts: TextToSpeech;
  /** Releases processes and native handles (server shutdown). */
  close(): Promise<void>;
}
