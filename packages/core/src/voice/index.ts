// Voice: the speech engines (voice activity detection, recognition, synthesis) behind one
// interface (speech.ts), the settings that choose them, and the PCM helpers at the session's edges.

export { voiceAvailability } from "./availability.ts";
export { createSpeechEngines } from "./engines.ts";
export { bytesToPcm, concatPcm, type DecodedWav, decodeWav, durationMs, encodeWav, pcmToBytes, resample } from "./pcm.ts";
export {
  checkSpeechSettings,
  SPEECH_RECOGNITION_SETTINGS,
  SPEECH_SYNTHESIS_SETTINGS,
  type SpeechConfig,
  type SpeechEndpointSettings,
  type SpeechSettings,
  speechConfigFrom,
  speechSettingsSchema,
} from "./settings.ts";
export {
  SPEECH_SAMPLE_RATE,
  type SpeechEngines,
  type SpeechToText,
  type TextToSpeech,
  type Transcript,
  type VadWindow,
  type VoiceActivityDetector,
} from "./speech.ts";
export { OpenAiSpeechToText, type SpeechEndpointConfig } from "./stt-openai.ts";
export { POCKETSPHINX_BINARY, POCKETSPHINX_MODEL_DIR, type PocketSphinxOptions, PocketSphinxRecognizer } from "./stt-pocketsphinx.ts";
export { FLITE_VOICES, FliteTextToSpeech } from "./tts-flite.ts";
export { OpenAiTextToSpeech } from "./tts-openai.ts";
export { createSileroVad, SILERO_WINDOW } from "./vad-silero.ts";
export { agentVoiceOperations } from "./voice-operations.ts";
