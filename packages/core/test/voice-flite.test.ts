// Flite in WASM (voice/tts-flite.ts): 16 kHz speech of a plausible length for every voice it offers
// (the 8 kHz one resampled), the same audio whether calls run one by one or all at once, many runs
// in a row, the default voice for a voice it does not have, English only, and a worker that starts
// again after close().
import { afterAll, describe, expect, it } from "vitest";
import { FLITE_VOICES, FliteTextToSpeech } from "../src/voice/tts-flite.ts";

const tts = new FliteTextToSpeech();
afterAll(() => tts.close());

const en = (voice: string, signal?: AbortSignal) => ({ voice, language: "en", signal });
const rms = (samples: Int16Array) => Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / Math.max(1, samples.length));
const SENTENCE = "Your order ships on Monday and arrives two days later.";

describe("Flite", () => {
  it("offers its built-in voices, kal16 first", () => {
    expect(tts.name).toBe("flite");
    expect(tts.voices).toEqual(FLITE_VOICES);
    expect(tts.voices[0]).toBe("kal16");
  });

  it.each(FLITE_VOICES)("speaks a sentence at 16 kHz with %s", async (voice) => {
    const audio = await tts.synthesize(SENTENCE, en(voice));
    // Ten words take two to five seconds at 16 kHz.
    expect(audio.length).toBeGreaterThan(2 * 16_000);
    expect(audio.length).toBeLessThan(5 * 16_000);
    expect(rms(audio)).toBeGreaterThan(500);
  });

  it("gives the same audio to concurrent calls as to calls one by one", async () => {
    const texts = ["One.", "Two, three.", "Four five six.", "Seven eight nine ten."];
    const alone = [];
    for (const [i, text] of texts.entries()) alone.push(await tts.synthesize(text, en(FLITE_VOICES[i % 2]!)));
    const together = await Promise.all(texts.map((text, i) => tts.synthesize(text, en(FLITE_VOICES[i % 2]!))));
    expect(together.map((audio) => audio.length)).toEqual(alone.map((audio) => audio.length));
    for (const [i, audio] of together.entries()) expect(Buffer.from(audio.buffer).equals(Buffer.from(alone[i]!.buffer))).toBe(true);
    expect(new Set(together.map((audio) => audio.length)).size).toBe(texts.length);
  });

  it("keeps working over many sentences (node:wasi crashed after a few runs of this module)", async () => {
    const lengths = [];
    for (let i = 0; i < 60; i++)
      lengths.push((await tts.synthesize(`Sentence number ${i}.`, en(FLITE_VOICES[i % FLITE_VOICES.length]!))).length);
    expect(lengths.every((length) => length > 8_000)).toBe(true);
  });

  it("speaks with the default voice when asked for one it does not have", async () => {
    const fallback = await tts.synthesize("Hello there.", en("alloy"));
    const kal16 = await tts.synthesize("Hello there.", en("kal16"));
    expect(Buffer.from(fallback.buffer).equals(Buffer.from(kal16.buffer))).toBe(true);
  });

  it("takes text that looks like options or holds control characters as text", async () => {
    const audio = await tts.synthesize("-voice awb\u0000 -o x.wav", en("kal16"));
    expect(audio.length).toBeGreaterThan(16_000);
    expect(await tts.synthesize(" \n\t ", en("kal16"))).toEqual(new Int16Array(0));
  });

  it("speaks English only, and not for an aborted call", async () => {
    await expect(tts.synthesize("Bonjour", { voice: "kal16", language: "fr" })).rejects.toThrow(/English only/);
    await expect(tts.synthesize("Hi", { voice: "kal16", language: "en-GB" })).resolves.toBeInstanceOf(Int16Array);
    const aborted = AbortSignal.abort(new Error("visitor left"));
    await expect(tts.synthesize("Hi", en("kal16", aborted))).rejects.toThrow("visitor left");
    const controller = new AbortController();
    const pending = tts.synthesize("A longer sentence that is still being spoken when the caller gives up.", en("slt", controller.signal));
    controller.abort(new Error("barge-in"));
    await expect(pending).rejects.toThrow("barge-in");
    // The worker is still good after an abandoned call.
    expect((await tts.synthesize("Still here.", en("kal16"))).length).toBeGreaterThan(8_000);
  });

  it("starts a new worker after close()", async () => {
    const own = new FliteTextToSpeech();
    const before = await own.synthesize("Again.", en("kal16"));
    await own.close();
    const after = await own.synthesize("Again.", en("kal16"));
    expect(after).toEqual(before);
    await own.close();
  });
});
