// The speech engines' settings. Core reads no environment: the app parses these variables
// (apps/web/src/env.ts includes the schema's shape) and hands the resulting config to
// createSpeechEngines (engines.ts).
import { optionalUrl } from "@parley/db";
import { z } from "zod";
import { PocketSphinxRecognizer } from "./stt-pocketsphinx.ts";

export const SPEECH_RECOGNITION_SETTINGS = ["auto", "endpoint", "pocketsphinx", "off"] as const;
export const SPEECH_SYNTHESIS_SETTINGS = ["auto", "endpoint", "flite"] as const;

const emptyIsUnset = (value: unknown) => (value === "" ? undefined : value);
const textOr = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || fallback);

export const speechSettingsSchema = z
  .object({
    /** An OpenAI-compatible API base (POST {base}/audio/transcriptions and /audio/speech). */
    SPEECH_BASE_URL: optionalUrl,
    SPEECH_API_KEY: z.string().optional(),
    SPEECH_STT_MODEL: textOr("whisper-1"),
    SPEECH_TTS_MODEL: textOr("tts-1"),
    /** The endpoint's voice, or several separated by commas (the first is the default). */
    SPEECH_TTS_VOICE: textOr("alloy"),
    /** auto: the endpoint when SPEECH_BASE_URL is set, else PocketSphinx when installed, else no recognition (no voice). */
    SPEECH_RECOGNITION: z.preprocess(emptyIsUnset, z.enum(SPEECH_RECOGNITION_SETTINGS).default("auto")),
    /** auto: the endpoint when SPEECH_BASE_URL is set, else the embedded Flite. */
    SPEECH_SYNTHESIS: z.preprocess(emptyIsUnset, z.enum(SPEECH_SYNTHESIS_SETTINGS).default("auto")),
  })
  .superRefine((settings, context) => checkSpeechSettings(settings, context));

export type SpeechSettings = z.infer<typeof speechSettingsSchema>;

/**
 * "endpoint" needs SPEECH_BASE_URL. The schema runs this itself; a schema that spreads its shape
 * into its own (as the app's env.ts does) loses it, and should call it from its superRefine.
 */
export function checkSpeechSettings(
  settings: Pick<SpeechSettings, "SPEECH_BASE_URL" | "SPEECH_RECOGNITION" | "SPEECH_SYNTHESIS">,
  context: { addIssue(issue: { code: "custom"; path: string[]; message: string }): void },
): void {
  if (settings.SPEECH_BASE_URL) return;
  for (const key of ["SPEECH_RECOGNITION", "SPEECH_SYNTHESIS"] as const) {
    if (settings[key] === "endpoint") context.addIssue({ code: "custom", path: [key], message: "endpoint needs SPEECH_BASE_URL" });
  }
}

export interface SpeechEndpointSettings {
  baseUrl: string;
  apiKey?: string;
  sttModel: string;
  ttsModel: string;
  /** At least one; the first is the default. */
  ttsVoices: string[];
}

/** Which engines run, with "auto" decided. */
export interface SpeechConfig {
  recognition: "endpoint" | "pocketsphinx" | "off";
  synthesis: "endpoint" | "flite";
  /** Set when either engine is the endpoint. */
  endpoint?: SpeechEndpointSettings;
}

/**
 * The engines the settings ask for. `pocketsphinxInstalled` (tests) defaults to a look at the disk.
 * Throws when "endpoint" is asked for without SPEECH_BASE_URL.
 */
export function speechConfigFrom(settings: SpeechSettings, options: { pocketsphinxInstalled?: boolean } = {}): SpeechConfig {
  const issues: string[] = [];
  checkSpeechSettings(settings, { addIssue: (issue) => issues.push(`${issue.path.join(".")}: ${issue.message}`) });
  if (issues.length > 0) throw new Error(`Speech settings: ${issues.join("; ")}`);
  const baseUrl = settings.SPEECH_BASE_URL;
  const recognition =
    settings.SPEECH_RECOGNITION !== "auto"
      ? settings.SPEECH_RECOGNITION
      : baseUrl
        ? "endpoint"
        : (options.pocketsphinxInstalled ?? PocketSphinxRecognizer.available())
          ? "pocketsphinx"
          : "off";
  const synthesis = settings.SPEECH_SYNTHESIS !== "auto" ? settings.SPEECH_SYNTHESIS : baseUrl ? "endpoint" : "flite";
  const voices = settings.SPEECH_TTS_VOICE.split(",")
    .map((voice) => voice.trim())
    .filter(Boolean);
  const endpoint =
    baseUrl && (recognition === "endpoint" || synthesis === "endpoint")
      ? {
          baseUrl,
          apiKey: settings.SPEECH_API_KEY || undefined,
          sttModel: settings.SPEECH_STT_MODEL,
          ttsModel: settings.SPEECH_TTS_MODEL,
          ttsVoices: voices.length > 0 ? voices : ["alloy"],
        }
      : undefined;
  return { recognition, synthesis, endpoint };
}
