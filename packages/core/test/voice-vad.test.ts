// The embedded Silero VAD (voice/vad-silero.ts) on real audio: Flite's speech scores above 0.5,
// silence and quiet white noise below; one decision per 512 samples however the audio is cut into
// pushes; reset() forgets the stream; detectors of one process do not share state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FliteTextToSpeech } from "../src/voice/tts-flite.ts";
import { createSileroVad, SILERO_WINDOW } from "../src/voice/vad-silero.ts";

const tts = new FliteTextToSpeech();
let speech: Int16Array;

beforeAll(async () => {
  speech = await tts.synthesize("How do I reset my password? I forgot it yesterday.", { voice: "kal16", language: "en" });
});

afterAll(() => tts.close());

function noise(samples: number, amplitude: number, seed = 7): Int16Array {
  let state = seed;
  return Int16Array.from({ length: samples }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return Math.round(((state >>> 8) / 0xffffff - 0.5) * 2 * amplitude);
  });
}

const speechOf = (windows: { speech: number }[]) => windows.map((window) => window.speech);

describe("Silero VAD", () => {
  it("scores Flite's speech above 0.5 and the silence around it below", () => {
    const vad = createSileroVad();
    const lead = vad.push(new Int16Array(16_000));
    const voiced = speechOf(vad.push(speech));
    const trail = vad.push(new Int16Array(16_000));
    expect(Math.max(...speechOf(lead))).toBeLessThan(0.5);
    // Most of a sentence is speech (pauses between words are short).
    expect(voiced.filter((p) => p > 0.5).length).toBeGreaterThan(0.6 * voiced.length);
    expect(Math.max(...voiced)).toBeGreaterThan(0.9);
    // The end of speech is recognised within a few windows.
    expect(Math.max(...speechOf(trail.slice(8)))).toBeLessThan(0.5);
    vad.close();
  });

  it("scores quiet white noise below 0.5", () => {
    const vad = createSileroVad();
    for (const amplitude of [100, 500, 1_500]) {
      vad.reset();
      expect(Math.max(...speechOf(vad.push(noise(3 * 16_000, amplitude))))).toBeLessThan(0.5);
    }
    vad.close();
  });

  it("gives one decision per 512 samples whatever the push sizes", () => {
    const whole = createSileroVad();
    const expected = whole.push(speech);
    expect(expected.length).toBe(Math.floor(speech.length / SILERO_WINDOW));
    expect(expected.every((window) => window.samples === SILERO_WINDOW)).toBe(true);

    const pieces = createSileroVad();
    const got = [];
    for (let offset = 0, size = 1; offset < speech.length; offset += size, size = (size * 7 + 3) % 1_500) {
      got.push(...pieces.push(speech.subarray(offset, offset + size)));
    }
    expect(got.length).toBe(expected.length);
    for (const [i, window] of got.entries()) expect(window.speech).toBeCloseTo(expected[i]!.speech, 5);
    expect(pieces.push(new Int16Array(0))).toEqual([]);
  });

  it("forgets the stream on reset, and keeps each detector's state its own", () => {
    const a = createSileroVad();
    const b = createSileroVad();
    const first = speechOf(a.push(speech));
    // b hears noise in between, which must not change what a hears next.
    b.push(noise(16_000, 3_000));
    a.reset();
    expect(speechOf(a.push(speech))).toEqual(first);
    // A reset in the middle of a window drops the partial window.
    a.reset();
    a.push(speech.subarray(0, 100));
    a.reset();
    expect(speechOf(a.push(speech))).toEqual(first);
    a.close();
    expect(() => a.push(speech)).toThrow(/closed/);
    b.close();
  });
});
