// Builds the speech engines a SpeechConfig (settings.ts) names. Nothing heavy starts here: the
// VAD model, the Flite worker and PocketSphinx processes load on first use.
import type { SpeechConfig } from "./settings.ts";
import type { SpeechEngines, SpeechToText } from "./speech.ts";
import { OpenAiSpeechToText } from "./stt-openai.ts";
import { PocketSphinxRecognizer } from "./stt-pocketsphinx.ts";
import { FliteTextToSpeech } from "./tts-flite.ts";
import { OpenAiTextToSpeech } from "./tts-openai.ts";
import { createSileroVad } from "./vad-silero.ts";

export function createSpeechEngines(config: SpeechConfig): SpeechEngines {
  const endpoint = (engine: string) => {
    if (!config.endpoint) throw new Error(`Speech ${engine} is set to the endpoint, but no endpoint is configured`);
    return config.endpoint;
  };
  let stt: (SpeechToText & { close?(): Promise<void> }) | null = null;
  if (config.recognition === "endpoint") {
    const { baseUrl, apiKey, sttModel } = endpoint("recognition");
    stt = new OpenAiSpeechToText({ baseUrl, apiKey, model: sttModel });
  } else if (config.recognition === "pocketsphinx") {
    stt = new PocketSphinxRecognizer();
  }
  let flite: FliteTextToSpeech | undefined;
  let tts: SpeechEngines["tts"];
  if (config.synthesis === "endpoint") {
    const { baseUrl, apiKey, ttsModel, ttsVoices } = endpoint("synthesis");
    tts = new OpenAiTextToSpeech({ baseUrl, apiKey, model: ttsModel, voices: ttsVoices });
  } else {
    flite = new FliteTextToSpeech();
    tts = flite;
  }
  return {
    // The VAD model is loaded once per process and shared by every detector (each keeps its own state).
    vad: createSileroVad,
    stt,
    tts,
    async close() {
      await Promise.all([stt?.close?.(), flite?.close()]);
    },
  };
}
