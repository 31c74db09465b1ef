// The speech settings (voice/settings.ts) and the engines they build (voice/engines.ts): defaults,
// what "auto" picks with and without an endpoint or PocketSphinx, "endpoint" refused without a URL
// (by the schema, by a schema that spreads its shape and calls checkSpeechSettings, and by
// speechConfigFrom), and engines that start nothing until used.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSpeechEngines } from "../src/voice/engines.ts";
import { checkSpeechSettings, speechConfigFrom, speechSettingsSchema } from "../src/voice/settings.ts";

const URL = "https://speech.example.test/v1";

describe("speech settings", () => {
  it("defaults the models, the voice and both choices", () => {
    const settings = speechSettingsSchema.parse({ SPEECH_STT_MODEL: "", SPEECH_RECOGNITION: "" });
    expect(settings).toEqual({
      SPEECH_BASE_URL: undefined,
      SPEECH_API_KEY: undefined,
      SPEECH_STT_MODEL: "whisper-1",
      SPEECH_TTS_MODEL: "tts-1",
      SPEECH_TTS_VOICE: "alloy",
      SPEECH_RECOGNITION: "auto",
      SPEECH_SYNTHESIS: "auto",
    });
  });

  it("picks the endpoint for both when a URL is set", () => {
    const settings = speechSettingsSchema.parse({ SPEECH_BASE_URL: URL, SPEECH_API_KEY: "sk-1", SPEECH_TTS_VOICE: " nova, alloy ,," });
    expect(speechConfigFrom(settings, { pocketsphinxInstalled: true })).toEqual({
      recognition: "endpoint",
      synthesis: "endpoint",
      endpoint: { baseUrl: URL, apiKey: "sk-1", sttModel: "whisper-1", ttsModel: "tts-1", ttsVoices: ["nova", "alloy"] },
    });
  });

  it("without a URL picks PocketSphinx when installed, else no recognition, and Flite", () => {
    const settings = speechSettingsSchema.parse({});
    expect(speechConfigFrom(settings, { pocketsphinxInstalled: true })).toEqual({
      recognition: "pocketsphinx",
      synthesis: "flite",
      endpoint: undefined,
    });
    expect(speechConfigFrom(settings, { pocketsphinxInstalled: false })).toEqual({
      recognition: "off",
      synthesis: "flite",
      endpoint: undefined,
    });
  });

  it("follows explicit choices, mixed ones included", () => {
    const settings = speechSettingsSchema.parse({ SPEECH_BASE_URL: URL, SPEECH_RECOGNITION: "pocketsphinx", SPEECH_SYNTHESIS: "endpoint" });
    const config = speechConfigFrom(settings, { pocketsphinxInstalled: false });
    expect(config.recognition).toBe("pocketsphinx");
    expect(config.synthesis).toBe("endpoint");
    expect(config.endpoint?.baseUrl).toBe(URL);
    const off = speechConfigFrom(
      speechSettingsSchema.parse({ SPEECH_BASE_URL: URL, SPEECH_RECOGNITION: "off", SPEECH_SYNTHESIS: "flite" }),
    );
    expect(off).toEqual({ recognition: "off", synthesis: "flite", endpoint: undefined });
  });

  it("refuses endpoint without SPEECH_BASE_URL, and unknown choices", () => {
    const result = speechSettingsSchema.safeParse({ SPEECH_RECOGNITION: "endpoint", SPEECH_SYNTHESIS: "endpoint" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["SPEECH_RECOGNITION", "endpoint needs SPEECH_BASE_URL"],
      ["SPEECH_SYNTHESIS", "endpoint needs SPEECH_BASE_URL"],
    ]);
    expect(speechSettingsSchema.safeParse({ SPEECH_SYNTHESIS: "espeak" }).success).toBe(false);
    expect(speechSettingsSchema.safeParse({ SPEECH_BASE_URL: "not a url" }).success).toBe(false);

    // A schema that spreads the shape (as the app's env.ts does) keeps the check through checkSpeechSettings.
    const app = z.object({ ...speechSettingsSchema.shape }).superRefine((config, context) => checkSpeechSettings(config, context));
    expect(app.safeParse({ SPEECH_SYNTHESIS: "endpoint" }).error?.issues[0]?.path).toEqual(["SPEECH_SYNTHESIS"]);

    const unchecked = { ...speechSettingsSchema.parse({}), SPEECH_RECOGNITION: "endpoint" as const };
    expect(() => speechConfigFrom(unchecked)).toThrow("Speech settings: SPEECH_RECOGNITION: endpoint needs SPEECH_BASE_URL");
  });
});

describe("createSpeechEngines", () => {
  it("builds the endpoint engines", async () => {
    const engines = createSpeechEngines(speechConfigFrom(speechSettingsSchema.parse({ SPEECH_BASE_URL: URL, SPEECH_TTS_VOICE: "echo" })));
    expect(engines.stt?.name).toBe("openai-compatible");
    expect(engines.tts.name).toBe("openai-compatible");
    expect(engines.tts.voices).toEqual(["echo"]);
    await engines.close();
  });

  it("builds the embedded engines, with no recognition when asked, and a VAD per call", async () => {
    const engines = createSpeechEngines({ recognition: "pocketsphinx", synthesis: "flite" });
    expect(engines.stt?.name).toBe("pocketsphinx");
    expect(engines.tts.name).toBe("flite");
    const [a, b] = [engines.vad(), engines.vad()];
    expect(a).not.toBe(b);
    expect(a.push(new Int16Array(1_024))).toHaveLength(2);
    a.close();
    b.close();
    await engines.close();

    const none = createSpeechEngines({ recognition: "off", synthesis: "flite" });
    expect(none.stt).toBeNull();
    await none.close();
  });

  it("refuses an endpoint engine without the endpoint", () => {
    expect(() => createSpeechEngines({ recognition: "endpoint", synthesis: "flite" })).toThrow(/no endpoint is configured/);
  });
});
