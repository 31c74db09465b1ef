// The microphone as PCM16 frames of 40 ms at the rate the server is sent: an AudioWorklet (from a
// blob: URL) buffers the context's samples, or a ScriptProcessorNode where the worklet cannot load
// (a page whose Content-Security-Policy has no blob: in script-src, such as Parley's help pages),
// then the main thread resamples them.

export type VoiceErrorCode = "unsupported" | "denied" | "no_microphone" | "failed" | "server";

/** Why voice could not start: `code` for the program, `message` to show. */
export class VoiceError extends Error {
  constructor(
    readonly code: VoiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "VoiceError";
  }
}

export interface Microphone {
  readonly context: AudioContext;
  /** The rate of the frames. */
  readonly rate: number;
  setMuted(muted: boolean): void;
  /** Releases the microphone (the browser's indicator goes off) and the context if it was ours. */
  close(): void;
}

export interface MicrophoneOptions {
  rate: number;
  context?: AudioContext;
  processing: boolean;
  onFrame(pcm: Int16Array): void;
}

const FRAME_MS = 40;
const WORKLET = `registerProcessor("parley-mic",class extends AudioWorkletProcessor{constructor(){super();this.b=new Float32Array(Math.round(sampleRate*${FRAME_MS / 1000}));this.n=0}process(i){const c=i[0]&&i[0][0];if(c)for(let k=0;k<c.length;k++){this.b[this.n++]=c[k];if(this.n===this.b.length){this.port.postMessage(this.b);this.b=new Float32Array(this.b.length);this.n=0}}return true}})`;

export async function openMicrophone(options: MicrophoneOptions): Promise<Microphone> {
  const Context = globalThis.AudioContext ?? (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (typeof navigator === "undefined" || !navigator.mediaDevices?.getUserMedia || !Context)
    throw new VoiceError("unsupported", "This browser cannot record audio here (voice needs a microphone and a secure https page).");
  // Created and resumed before the first await: still inside the visitor's click, so it may play.
  const context = options.context ?? new Context();
  const own = !options.context;
  void context.resume();
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: {
        echoCancellation: options.processing,
        noiseSuppression: options.processing,
        autoGainControl: options.processing,
        channelCount: 1,
      },
    });
  } catch (error) {
    if (own) void context.close();
    throw microphoneError(error);
  }
  try {
    return await capture(context, own, stream, options);
  } catch (error) {
    // Granted but not wired up: the browser's indicator must go off all the same.
    for (const track of stream.getTracks()) track.stop();
    if (own) void context.close();
    throw microphoneError(error);
  }
}

/** The stream into frames: source -> worklet (or ScriptProcessorNode) -> a silent gain. */
async function capture(context: AudioContext, own: boolean, stream: MediaStream, options: MicrophoneOptions): Promise<Microphone> {
  const nodes: AudioNode[] = [];
  let url: string | undefined;
  try {
    const source = context.createMediaStreamSource(stream);
    nodes.push(source);
    // The capture node must reach the destination to run; through a silent gain it plays nothing.
    const silent = context.createGain();
    nodes.push(silent);
    silent.gain.value = 0;
    silent.connect(context.destination);
    const convert = resampler(context.sampleRate, options.rate);
    const frame = new Int16Array((options.rate * FRAME_MS) / 1000);
    let filled = 0;
    const take = (samples: Float32Array) => {
      for (const sample of convert(samples)) {
        frame[filled++] = sample;
        if (filled === frame.length) {
          options.onFrame(frame.slice());
          filled = 0;
        }
      }
    };
    let node: AudioNode;
    try {
      url = URL.createObjectURL(new Blob([WORKLET], { type: "text/javascript" }));
      await context.audioWorklet.addModule(url);
      const worklet = new AudioWorkletNode(context, "parley-mic");
      worklet.port.onmessage = (event: MessageEvent<Float32Array>) => take(event.data);
      node = worklet;
    } catch {
      const processor = context.createScriptProcessor(2048, 1, 1);
      processor.onaudioprocess = (event) => take(event.inputBuffer.getChannelData(0));
      node = processor;
    }
    nodes.push(node);
    source.connect(node);
    node.connect(silent);
  } catch (error) {
    // The caller's context stays usable: nothing of ours left connected to it.
    for (const node of nodes) node.disconnect();
    if (url) URL.revokeObjectURL(url);
    throw error;
  }
  return {
    context,
    rate: options.rate,
    setMuted(muted) {
      for (const track of stream.getAudioTracks()) track.enabled = !muted;
    },
    close() {
      for (const track of stream.getTracks()) track.stop();
      for (const node of nodes) node.disconnect();
      if (url) URL.revokeObjectURL(url);
      if (own) void context.close();
    },
  };
}

function microphoneError(error: unknown): VoiceError {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError") return new VoiceError("denied", "Microphone access was refused.");
  if (name === "NotFoundError" || name === "OverconstrainedError") return new VoiceError("no_microphone", "No microphone was found.");
  return new VoiceError("failed", `The microphone could not be started (${error instanceof Error ? error.message : String(error)}).`);
}

/**
 * Float samples at `from` Hz to PCM16 at `to` Hz, across calls: downsampling averages the input
 * samples of each output sample (a box filter, enough against aliasing for speech), upsampling
 * interpolates linearly.
 */
export function resampler(from: number, to: number): (input: Float32Array) => Int16Array {
  const step = from / to;
  let sum = 0;
  let count = 0;
  let phase = 0;
  let previous = 0;
  return (input) => {
    const output = new Int16Array(Math.ceil(input.length / step) + 2);
    let n = 0;
    for (const sample of input) {
      if (step >= 1) {
        sum += sample;
        count += 1;
        phase += 1;
        if (phase >= step) {
          output[n++] = pcm16(sum / count);
          sum = 0;
          count = 0;
          phase -= step;
        }
      } else {
        for (; phase < 1; phase += step) output[n++] = pcm16(previous + (sample - previous) * phase);
        phase -= 1;
        previous = sample;
      }
    }
    return output.subarray(0, n);
  };
}

function pcm16(sample: number): number {
  return Math.round(Math.max(-1, Math.min(1, sample)) * 32767);
}
