// Voice frames of `parley.v1` (README, "Voice"). The page sends JSON control frames and binary
// frames of raw PCM16LE mono audio; the server answers with JSON frames and binary frames of the
// reply's audio. Every voice error is an `error` frame: the connection stays usable.
import { z } from "zod";
import { VOICE_LANGUAGE_MAX_CHARS } from "../agents/voice-settings.ts";
import { VOICE_APPEND_MAX_CHARS, VOICE_SAMPLE_RATES } from "./limits.ts";

const rateList = VOICE_SAMPLE_RATES.join(", ");
const audioFormat = z.strictObject({
  encoding: z.literal("pcm16", { error: "must be pcm16" }),
  sampleRate: z.number().refine((rate) => (VOICE_SAMPLE_RATES as readonly number[]).includes(rate), `must be one of ${rateList}`),
});

export const voiceClientFrameSchemas = [
  z.strictObject({
    type: z.literal("voice.start"),
    input: audioFormat,
    output: audioFormat,
    turnDetection: z.enum(["server_vad", "push_to_talk"], { error: "must be server_vad or push_to_talk" }).default("server_vad"),
    language: z
      .string()
      .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/, "must be a language tag such as en or en-US")
      .max(VOICE_LANGUAGE_MAX_CHARS)
      .optional(),
  }),
  z.strictObject({
    type: z.literal("voice.append"),
    audio: z
      .string()
      .max(VOICE_APPEND_MAX_CHARS, "must be at most 100 ms of audio")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64"),
  }),
  z.strictObject({ type: z.literal("voice.commit") }),
  z.strictObject({
    type: z.literal("voice.interrupt"),
    /** The reply (voice.audio.start's responseId) this is about; absent: the one playing. */
    responseId: z.string().min(1).max(100).optional(),
    playedMs: z.number().int().min(0).max(3_600_000).optional(),
  }),
  z.strictObject({ type: z.literal("voice.stop") }),
] as const;

export type VoiceStartFrame = z.infer<(typeof voiceClientFrameSchemas)[0]>;
export type VoiceClientFrame = z.infer<(typeof voiceClientFrameSchemas)[number]>;
export type VoiceState = "listening" | "thinking" | "speaking" | "stopped";

export interface VoiceAudioFormat {
  encoding: "pcm16";
  sampleRate: number;
}

export type VoiceServerFrame =
  /** stopped: the session ended (voice.stop, a limit, the agent's voice turned off); text chat goes on. */
  | { type: "voice.state"; state: VoiceState }
  | { type: "voice.speech_started" }
  | { type: "voice.speech_stopped" }
  /** role user: what the visitor said (final once recognised); role agent: what was spoken of the reply. */
  | { type: "voice.transcript"; role: "user" | "agent"; text: string; final: boolean; messageId?: string }
  | { type: "voice.audio.start"; responseId: string; format: VoiceAudioFormat }
  /** interrupted: the visitor spoke over it (or sent voice.interrupt); playing stops. */
  | { type: "voice.audio.end"; responseId: string; interrupted: boolean };

/** The error frames' texts (error, details): one home for each. */
export const VOICE_ERRORS = {
  voiceOff: { error: "Voice unavailable", details: "Voice is off for this agent" },
  noRecognition: { error: "Voice unavailable", details: "Speech recognition is not set up on this server" },
  notStarted: { error: "Invalid request", details: "audio: send voice.start first" },
  alreadyStarted: { error: "Invalid request", details: "type: voice is already started; send voice.stop first" },
  oddLength: { error: "Invalid request", details: "audio: must be whole 16-bit samples (an even number of bytes)" },
  frameTooLarge: { error: "Invalid request", details: "audio: a frame must hold at most 100 ms of audio" },
  frameTooSmall: { error: "Invalid request", details: "audio: a frame must hold at least 10 ms of audio" },
  languageUnsupported: { error: "Voice unavailable", details: "language: this server's speech engines do not understand it" },
  tooFast: { error: "Rate limit exceeded", details: "audio: sent faster than 1.5 times real time" },
  utteranceTooLong: { error: "Invalid request", details: "audio: an utterance must be at most 30 seconds; it was dropped" },
  commitWithoutPushToTalk: { error: "Invalid request", details: "type: voice.commit is for push_to_talk sessions" },
  sessionTooLong: { error: "Voice limit reached", details: "This voice session reached its time limit" },
  tooManySessions: { error: "Voice limit reached", details: "Too many voice sessions from this address" },
  serverBusy: { error: "Voice unavailable", details: "Voice is busy on this server; try again in a minute" },
  notUnderstood: { error: "Not understood", details: "No words were recognised in that audio" },
  recognitionFailed: { error: "Voice unavailable", details: "Speech recognition failed; try again or type" },
  synthesisFailed: { error: "Voice unavailable", details: "Speech synthesis failed; the reply is shown as text" },
} as const;
