// PCM16 helpers for the edges of a voice session: bytes <-> samples, rate conversion, WAV files.
// Everything is mono signed 16-bit little-endian, the format the engines and the endpoints share.

/** Samples of `data` (PCM16 little-endian). Copies, so any byteOffset (odd ones too) works. */
export function bytesToPcm(data: Uint8Array): Int16Array {
  const count = Math.floor(data.byteLength / 2);
  const samples = new Int16Array(count);
  // A DataView reads little-endian on any host and at any alignment.
  const view = new DataView(data.buffer, data.byteOffset, count * 2);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

/** The samples as PCM16 little-endian bytes (a copy). */
export function pcmToBytes(samples: Int16Array): Buffer<ArrayBuffer> {
  const bytes = Buffer.allocUnsafe(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i]!, i * 2);
  return bytes;
}

/** Pieces of audio, one after another, as one. */
export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Duration in milliseconds of `samples` samples at `sampleRate`. */
export function durationMs(samples: number, sampleRate: number): number {
  return (samples * 1000) / sampleRate;
}

/**
 * `samples` converted from `fromRate` to `toRate` by linear interpolation; the output has
 * round(length * toRate / fromRate) samples (`samples` itself when the rates are equal). When
 * lowering the rate, the source is first averaged over the span one output sample covers: a cheap
 * low-pass that keeps most of what lies above the new Nyquist frequency from folding back into the
 * speech band (48 kHz microphones hear up to 20 kHz).
 */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (!(fromRate > 0 && toRate > 0)) throw new Error(`Cannot resample from ${fromRate} Hz to ${toRate} Hz`);
  if (fromRate === toRate) return samples;
  if (samples.length === 0) return new Int16Array(0);
  const source = toRate < fromRate ? boxFilter(samples, Math.round(fromRate / toRate)) : Float64Array.from(samples);
  const length = Math.round((samples.length * toRate) / fromRate);
  const out = new Int16Array(length);
  const step = fromRate / toRate;
  const last = source.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.min(Math.floor(position), last);
    const next = Math.min(index + 1, last);
    const fraction = position - index;
    out[i] = clamp16(source[index]! + (source[next]! - source[index]!) * fraction);
  }
  return out;
}

/**
 * A centred moving average over `width` samples. An even width gets half weights at both ends
 * (width + 1 taps) so that it stays centred and shifts nothing in time.
 */
function boxFilter(samples: Int16Array, width: number): Float64Array {
  const out = new Float64Array(samples.length);
  if (width <= 1) {
    out.set(samples);
    return out;
  }
  const half = Math.floor(width / 2);
  const weights = Array.from({ length: 2 * half + 1 }, (_, k) => (width % 2 === 0 && (k === 0 || k === 2 * half) ? 0.5 : 1));
  for (let i = 0; i < samples.length; i++) {
    let sum = 0;
    let total = 0;
    // Near the edges, the taps that fall outside are left out and the rest renormalised.
    for (let k = Math.max(0, half - i); k < weights.length && i + k - half < samples.length; k++) {
      sum += weights[k]! * samples[i + k - half]!;
      total += weights[k]!;
    }
    out[i] = sum / total;
  }
  return out;
}

function clamp16(value: number): number {
  return Math.max(-32_768, Math.min(32_767, Math.round(value)));
}

/** A RIFF WAV file (PCM16 mono) holding `samples`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer<ArrayBuffer> {
  const dataBytes = samples.length * 2;
  const file = Buffer.alloc(44 + dataBytes);
  file.write("RIFF", 0, "ascii");
  file.writeUInt32LE(36 + dataBytes, 4);
  file.write("WAVE", 8, "ascii");
  file.write("fmt ", 12, "ascii");
  file.writeUInt32LE(16, 16);
  file.writeUInt16LE(1, 20); // PCM
  file.writeUInt16LE(1, 22); // mono
  file.writeUInt32LE(sampleRate, 24);
  file.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  file.writeUInt16LE(2, 32); // bytes per frame
  file.writeUInt16LE(16, 34); // bits per sample
  file.write("data", 36, "ascii");
  file.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) file.writeInt16LE(samples[i]!, 44 + i * 2);
  return file;
}

export interface DecodedWav {
  samples: Int16Array;
  sampleRate: number;
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * The mono samples and rate of a RIFF WAV file. Accepts PCM16, mono or stereo (averaged to mono),
 * at any rate; throws on anything else. A data chunk whose size is unknown or larger than the file
 * (what streaming servers write) runs to the end of the file.
 */
export function decodeWav(file: Uint8Array): DecodedWav {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (bytes.length < 12 || bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("Not a WAV file (no RIFF/WAVE header)");
  }
  let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > bytes.length) throw new Error("WAV file with a truncated fmt chunk");
      let tag = bytes.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
      if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= bytes.length) tag = bytes.readUInt16LE(body + 24);
      format = {
        tag,
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bits: bytes.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) throw new Error("WAV file with its data before its fmt chunk");
      if (format.tag !== WAVE_FORMAT_PCM || format.bits !== 16) {
        throw new Error(`Unsupported WAV encoding (format ${format.tag}, ${format.bits} bits): only 16-bit PCM is accepted`);
      }
      if (format.channels !== 1 && format.channels !== 2) {
        throw new Error(`Unsupported WAV channel count ${format.channels}: only mono and stereo are accepted`);
      }
      if (format.sampleRate <= 0) throw new Error("WAV file with a sample rate of 0");
      const available = bytes.length - body;
      const length = size === 0 || size > available ? available : size;
      const interleaved = bytesToPcm(bytes.subarray(body, body + length));
      return { samples: format.channels === 2 ? downmix(interleaved) : interleaved, sampleRate: format.sampleRate };
    }
    // Chunks are padded to an even length.
    offset = body + size + (size % 2);
  }
  throw new Error(format ? "WAV file without a data chunk" : "WAV file without a fmt chunk");
}

function downmix(interleaved: Int16Array): Int16Array {
  const mono = new Int16Array(Math.floor(interleaved.length / 2));
  for (let i = 0; i < mono.length; i++) mono[i] = Math.round((interleaved[2 * i]! + interleaved[2 * i + 1]!) / 2);
  return mono;
}
