// Speech recognition through an OpenAI-compatible endpoint: POST {base}/audio/transcriptions with
// the utterance as a WAV file (OpenAI's Whisper, or a self-hosted server speaking the same API).
// Also the request helper both endpoint engines share: a time limit, the caller's signal, and
// error messages that never carry the API key or the audio (they end up in logs).
import { encodeWav } from "./pcm.ts";
import { SPEECH_SAMPLE_RATE, type SpeechToText, type Transcript } from "./speech.ts";

export interface SpeechEndpointConfig {
  /** An OpenAI-compatible API base, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
}

export const SPEECH_ENDPOINT_TIMEOUT_MS = 30_000;

/** POSTs to `{baseUrl}{path}`; resolves with a 2xx response, throws a key-free Error otherwise. */
export async function callSpeechEndpoint(
  config: SpeechEndpointConfig,
  path: string,
  init: { body: BodyInit; headers?: Record<string, string> },
  what: "recognition" | "synthesis",
  signal: AbortSignal | undefined,
): Promise<Response> {
  const timeoutMs = config.timeoutMs ?? SPEECH_ENDPOINT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = { ...init.headers };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const url = `${config.baseUrl.replace(/\/+$/, "")}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: init.body,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) throw new Error(`The speech ${what} endpoint did not answer within ${timeoutMs} ms`);
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : "";
    throw new Error(`The speech ${what} endpoint could not be reached${cause ? `: ${redact(cause, config.apiKey)}` : ""}`);
  }
  if (response.ok) return response;
  const body = await response.text().catch(() => "");
  throw new Error(`The speech ${what} endpoint answered ${response.status}${describeBody(body, config.apiKey)}`);
}

/** An error body's message, shortened, on one line, without the key (some servers echo it). */
function describeBody(body: string, apiKey: string | undefined): string {
  let message = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === "string") message = candidate;
  } catch {
    // Not JSON: the text itself.
  }
  message = redact(message, apiKey).replace(/\s+/g, " ").trim().slice(0, 200);
  return message ? `: ${message}` : "";
}

function redact(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join("[API key]") : text;
}

export class OpenAiSpeechToText implements SpeechToText {
  readonly name = "openai-compatible";

  constructor(private readonly config: SpeechEndpointConfig & { model: string }) {}

  async transcribe(audio: Int16Array, options: { language: string; signal?: AbortSignal }): Promise<Transcript> {
    options.signal?.throwIfAborted();
    const form = new FormData();
    form.append("file", new Blob([encodeWav(audio, SPEECH_SAMPLE_RATE)], { type: "audio/wav" }), "utterance.wav");
    form.append("model", this.config.model);
    // The API takes ISO 639-1 codes: "en", not "en-US".
    const language = options.language.split(/[-_]/)[0]!.toLowerCase();
    if (language) form.append("language", language);
    const response = await callSpeechEndpoint(this.config, "/audio/transcriptions", { body: form }, "recognition", options.signal);
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      throw new Error("The speech recognition endpoint did not answer with JSON");
    }
    const text = (answer as { text?: unknown } | null)?.text;
    if (typeof text !== "string") throw new Error("The speech recognition endpoint's answer has no text");
    return { text };
  }
}
