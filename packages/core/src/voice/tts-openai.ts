// Speech synthesis through an OpenAI-compatible endpoint: POST {base}/audio/speech asking for a
// WAV. Some compatible servers answer raw PCM instead (OpenAI's own "pcm" format: 24 kHz 16-bit
// mono), so anything that is not a WAV and not an error body is read as that.
import { bytesToPcm, decodeWav, resample } from "./pcm.ts";
import { SPEECH_SAMPLE_RATE, type TextToSpeech } from "./speech.ts";
import { callSpeechEndpoint, type SpeechEndpointConfig } from "./stt-openai.ts";

/** The rate of OpenAI's raw "pcm" answers. */
export const OPENAI_PCM_RATE = 24_000;

export class OpenAiTextToSpeech implements TextToSpeech {
  readonly name = "openai-compatible";
  readonly voices: readonly string[];

  /** `voices`: what the endpoint offers (the first is the default); the API has no way to list them. */
  constructor(private readonly config: SpeechEndpointConfig & { model: string; voices: readonly string[] }) {
    if (config.voices.length === 0) throw new Error("The speech synthesis endpoint needs at least one voice");
    this.voices = config.voices;
  }

  async synthesize(text: string, options: { voice: string; language: string; signal?: AbortSignal }): Promise<Int16Array> {
    options.signal?.throwIfAborted();
    const input = text.trim();
    if (!input) return new Int16Array(0);
    // The language is not sent: the API reads it from the text.
    const voice = this.voices.includes(options.voice) ? options.voice : this.voices[0]!;
    const response = await callSpeechEndpoint(
      this.config,
      "/audio/speech",
      {
        body: JSON.stringify({ model: this.config.model, input, voice, response_format: "wav" }),
        headers: { "content-type": "application/json" },
      },
      "synthesis",
      options.signal,
    );
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    const body = new Uint8Array(await response.arrayBuffer());
    if (/^audio\/(x-|vnd\.)?wave?\b/.test(type) || isWav(body)) {
      const { samples, sampleRate } = decodeWav(body);
      return resample(samples, sampleRate, SPEECH_SAMPLE_RATE);
    }
    if (type.startsWith("application/json") || type.startsWith("text/")) {
      throw new Error(`The speech synthesis endpoint answered ${type.split(";")[0]} instead of audio`);
    }
    // Raw PCM: 24 kHz unless the type names its rate (audio/L16; rate=22050).
    const rate = Number(/rate=(\d+)/.exec(type)?.[1] ?? OPENAI_PCM_RATE);
    return resample(bytesToPcm(body), rate, SPEECH_SAMPLE_RATE);
  }
}

function isWav(body: Uint8Array): boolean {
  return (
    body.length >= 12 &&
    Buffer.from(body.subarray(0, 4)).toString("ascii") === "RIFF" &&
    Buffer.from(body.subarray(8, 12)).toString("ascii") === "WAVE"
  );
}
