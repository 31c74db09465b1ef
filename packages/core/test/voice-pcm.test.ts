// PCM helpers (voice/pcm.ts): little-endian bytes at any offset, resampling that keeps length and
// pitch (and damps what would alias when lowering the rate), WAV files written and read back,
// stereo averaged to mono, streaming-style headers accepted, other encodings refused by name.
import { describe, expect, it } from "vitest";
import { bytesToPcm, decodeWav, durationMs, encodeWav, pcmToBytes, resample } from "../src/voice/pcm.ts";

function sine(frequency: number, rate: number, seconds: number, amplitude = 10_000): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / rate)),
  );
}

/** The frequency of a clean sine from its rising zero crossings. */
function frequencyOf(samples: Int16Array, rate: number): number {
  const crossings: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    if (samples[i - 1]! < 0 && samples[i]! >= 0) crossings.push(i - samples[i]! / (samples[i]! - samples[i - 1]!));
  }
  return ((crossings.length - 1) * rate) / (crossings.at(-1)! - crossings[0]!);
}

function rms(samples: Int16Array): number {
  return Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
}

/** A RIFF file from raw chunks (id, body), for the decoder's corner cases. */
function riff(...chunks: [string, Buffer][]): Buffer {
  const parts = chunks.flatMap(([id, body]) => {
    const header = Buffer.alloc(8);
    header.write(id, 0, "ascii");
    header.writeUInt32LE(body.length, 4);
    return body.length % 2 ? [header, body, Buffer.alloc(1)] : [header, body];
  });
  const head = Buffer.alloc(12);
  head.write("RIFF", 0, "ascii");
  head.writeUInt32LE(4 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  head.write("WAVE", 8, "ascii");
  return Buffer.concat([head, ...parts]);
}

function fmt(options: { tag?: number; channels?: number; rate?: number; bits?: number }): Buffer {
  const { tag = 1, channels = 1, rate = 16_000, bits = 16 } = options;
  const body = Buffer.alloc(16);
  body.writeUInt16LE(tag, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(rate, 4);
  body.writeUInt32LE((rate * channels * bits) / 8, 8);
  body.writeUInt16LE((channels * bits) / 8, 12);
  body.writeUInt16LE(bits, 14);
  return body;
}

describe("bytes and samples", () => {
  it("reads and writes little-endian PCM16", () => {
    expect([...pcmToBytes(Int16Array.of(0x0102, -2, 32_767, -32_768))]).toEqual([0x02, 0x01, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80]);
    expect([...bytesToPcm(Uint8Array.of(0x02, 0x01, 0xfe, 0xff))]).toEqual([0x0102, -2]);
  });

  it("reads from an odd byte offset and ignores a trailing odd byte", () => {
    const samples = Int16Array.of(1, -1, 12_345, -12_345, 0);
    const shifted = Buffer.concat([Buffer.from([0xaa]), pcmToBytes(samples), Buffer.from([0xbb])]);
    const view = shifted.subarray(1);
    expect(view.byteOffset % 2).toBe(1);
    expect([...bytesToPcm(view)]).toEqual([...samples]);
  });

  it("gives durations", () => {
    expect(durationMs(16_000, 16_000)).toBe(1_000);
    expect(durationMs(480, 48_000)).toBe(10);
  });
});

describe("resample", () => {
  it.each([
    [16_000, 48_000],
    [16_000, 24_000],
    [24_000, 48_000],
    [16_000, 44_100],
  ])("keeps the length and a sine's frequency from %i Hz to %i Hz and back", (low, high) => {
    const original = sine(440, low, 1.003);
    const up = resample(original, low, high);
    expect(up.length).toBe(Math.round((original.length * high) / low));
    expect(frequencyOf(up, high)).toBeCloseTo(440, 0);
    const back = resample(up, high, low);
    expect(back.length).toBe(original.length);
    expect(frequencyOf(back, low)).toBeCloseTo(440, 0);
    // Linear interpolation of a 440 Hz tone is nearly exact: the round trip stays within 2% of full scale.
    const error = Math.max(...original.map((value, i) => Math.abs(value - back[i]!)).slice(10, -10));
    expect(error).toBeLessThan(200);
  });

  it("keeps speech-band tones and damps what would alias when lowering the rate", () => {
    const speech = resample(sine(1_000, 48_000, 0.5), 48_000, 16_000);
    expect(frequencyOf(speech, 16_000)).toBeCloseTo(1_000, 0);
    expect(rms(speech)).toBeGreaterThan(0.9 * rms(sine(1_000, 16_000, 0.5)));
    // 15 kHz cannot exist at 16 kHz; unfiltered, it would fold back to 1 kHz at full strength.
    const high = sine(15_000, 48_000, 0.5);
    expect(rms(resample(high, 48_000, 16_000))).toBeLessThan(0.15 * rms(high));
  });

  it("returns the same samples at the same rate and nothing for nothing", () => {
    const samples = sine(300, 16_000, 0.1);
    expect(resample(samples, 16_000, 16_000)).toBe(samples);
    expect(resample(new Int16Array(0), 48_000, 16_000).length).toBe(0);
    expect(() => resample(samples, 0, 16_000)).toThrow(/resample/);
  });
});

describe("WAV", () => {
  it("encodes a RIFF PCM16 mono file and decodes it back", () => {
    const samples = sine(523, 24_000, 0.25);
    const file = encodeWav(samples, 24_000);
    expect(file.length).toBe(44 + samples.length * 2);
    expect(file.toString("ascii", 0, 4)).toBe("RIFF");
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
    expect(file.toString("ascii", 8, 16)).toBe("WAVEfmt ");
    expect([file.readUInt16LE(20), file.readUInt16LE(22), file.readUInt32LE(24), file.readUInt16LE(34)]).toEqual([1, 1, 24_000, 16]);
    const decoded = decodeWav(file);
    expect(decoded.sampleRate).toBe(24_000);
    expect([...decoded.samples]).toEqual([...samples]);
  });

  it("averages stereo to mono and skips other chunks, odd-sized ones included", () => {
    const stereo = pcmToBytes(Int16Array.of(100, 300, -100, -301, 32_767, 32_767));
    const decoded = decodeWav(riff(["fmt ", fmt({ channels: 2, rate: 44_100 })], ["LIST", Buffer.from("odd")], ["data", stereo]));
    expect(decoded.sampleRate).toBe(44_100);
    expect([...decoded.samples]).toEqual([200, -200, 32_767]);
  });

  it("reads a data chunk of unknown size to the end of the file (streamed WAVs)", () => {
    const file = encodeWav(Int16Array.of(1, 2, 3, 4), 24_000);
    file.writeUInt32LE(0xffffffff, 4);
    file.writeUInt32LE(0xffffffff, 40);
    expect([...decodeWav(file).samples]).toEqual([1, 2, 3, 4]);
  });

  it("accepts WAVE_FORMAT_EXTENSIBLE when it holds PCM", () => {
    const body = Buffer.alloc(40);
    fmt({ tag: 0xfffe }).copy(body);
    body.writeUInt16LE(22, 16);
    body.writeUInt16LE(1, 24); // sub-format GUID: PCM
    expect([...decodeWav(riff(["fmt ", body], ["data", pcmToBytes(Int16Array.of(7, -7))])).samples]).toEqual([7, -7]);
  });

  it("refuses what it cannot read, saying why", () => {
    const data: [string, Buffer] = ["data", Buffer.alloc(8)];
    expect(() => decodeWav(Buffer.from("ID3 not a wav file"))).toThrow(/Not a WAV file/);
    expect(() => decodeWav(riff(["fmt ", fmt({ bits: 8 })], data))).toThrow(/only 16-bit PCM/);
    expect(() => decodeWav(riff(["fmt ", fmt({ tag: 3, bits: 32 })], data))).toThrow(/format 3/);
    expect(() => decodeWav(riff(["fmt ", fmt({ channels: 6 })], data))).toThrow(/channel count 6/);
    expect(() => decodeWav(riff(data))).toThrow(/data before its fmt/);
    expect(() => decodeWav(riff(["fmt ", fmt({})]))).toThrow(/without a data chunk/);
  });
});
