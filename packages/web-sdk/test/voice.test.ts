// @parley/web's voice: the frames it sends (voice.start, audio split into frames of at most
// 100 ms, commit, interrupt, stop), the reply's binary audio routed to events between
// voice.audio.start and .end, and the microphone mode with a fake microphone and audio context:
// what it sends, what it measures of a reply cut by barge-in, and its errors.
import { afterEach, describe, expect, it, vi } from "vitest";
import { connect, type ParleyConnection, type ParleyEvents, type WebSocketConstructor } from "../src/index.ts";
import { resampler } from "../src/microphone.ts";

type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;

/** A WebSocket the test plays the server of. */
class FakeSocket {
  static last: FakeSocket;
  readyState = 0;
  binaryType = "blob";
  readonly sent: Array<string | ArrayBuffer> = [];
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly url: string,
    readonly protocol: string,
  ) {
    FakeSocket.last = this;
  }

  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string | ArrayBuffer) {
    this.sent.push(data);
  }

  close(code = 1000, reason = "") {
    this.readyState = 3;
    this.dispatch("close", { code, reason });
  }

  dispatch(type: string, event: Parameters<Listener>[0]) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** The server side. */
  accept() {
    this.readyState = 1;
    this.dispatch("open", {});
    this.receive({ type: "ready", conversationId: null, resumeToken: null, status: "active", messages: [] });
  }

  receive(frame: Record<string, unknown>) {
    this.dispatch("message", { data: JSON.stringify(frame) });
  }

  receiveBinary(data: ArrayBuffer) {
    this.dispatch("message", { data });
  }

  json(): Array<Record<string, unknown>> {
    return this.sent.filter((data) => typeof data === "string").map((data) => JSON.parse(data) as Record<string, unknown>);
  }

  binary(): ArrayBuffer[] {
    return this.sent.filter((data) => typeof data !== "string");
  }
}

function open(): { chat: ParleyConnection; socket: FakeSocket } {
  const chat = connect({
    agentId: "demo",
    baseUrl: "http://localhost:3000",
    storage: null,
    WebSocket: FakeSocket as unknown as WebSocketConstructor,
  });
  const socket = FakeSocket.last;
  socket.accept();
  return { chat, socket };
}

function record<E extends keyof ParleyEvents>(chat: ParleyConnection, event: E): Array<ParleyEvents[E]> {
  const seen: Array<ParleyEvents[E]> = [];
  chat.on(event, (payload) => seen.push(payload));
  return seen;
}

function samples(count: number, first = 0): Int16Array<ArrayBuffer> {
  const pcm = new Int16Array(count);
  for (let i = 0; i < count; i++) pcm[i] = (first + i) % 30_000;
  return pcm;
}

describe("voice: raw API", () => {
  it("sends voice.start and resolves when the server listens", async () => {
    const { chat, socket } = open();
    expect(socket.binaryType).toBe("arraybuffer");
    const states = record(chat, "voice.state");
    const opened = chat.voice.open({ inputSampleRate: 24_000, outputSampleRate: 48_000, turnDetection: "push_to_talk", language: "en-US" });
    expect(socket.json().at(-1)).toEqual({
      type: "voice.start",
      input: { encoding: "pcm16", sampleRate: 24_000 },
      output: { encoding: "pcm16", sampleRate: 48_000 },
      turnDetection: "push_to_talk",
      language: "en-US",
    });
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(opened).resolves.toBeUndefined();
    expect(chat.voice.state).toBe("listening");
    expect(states).toEqual(["listening"]);

    chat.voice.commit();
    chat.voice.interrupt(1234.4, "r9");
    chat.voice.stop();
    expect(socket.json().slice(-3)).toEqual([
      { type: "voice.commit" },
      { type: "voice.interrupt", responseId: "r9", playedMs: 1234 },
      { type: "voice.stop" },
    ]);
  });

  it("defaults to 16 kHz both ways and server turn detection", () => {
    const { chat, socket } = open();
    void chat.voice.open();
    expect(socket.json().at(-1)).toEqual({
      type: "voice.start",
      input: { encoding: "pcm16", sampleRate: 16_000 },
      output: { encoding: "pcm16", sampleRate: 16_000 },
    });
  });

  it("splits audio into binary frames of at most 100 ms at the input rate, samples intact", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open({ inputSampleRate: 16_000 });
    socket.receive({ type: "voice.state", state: "listening" });
    await opened;
    const audio = samples(4_000); // 250 ms
    chat.voice.sendAudio(audio);
    const frames = socket.binary();
    expect(frames.map((frame) => frame.byteLength)).toEqual([3_200, 3_200, 1_600]);
    const joined = new Int16Array(frames.flatMap((frame) => [...new Int16Array(frame)]));
    expect(joined).toEqual(audio);

    // A view into a larger buffer, as an ArrayBuffer too.
    chat.voice.sendAudio(audio.subarray(1, 801));
    chat.voice.sendAudio(samples(100).buffer);
    expect(new Int16Array(socket.binary()[3] as ArrayBuffer)).toEqual(audio.subarray(1, 801));
    expect(socket.binary()[4]?.byteLength).toBe(200);
    expect(() => chat.voice.sendAudio(new ArrayBuffer(3))).toThrow("PCM16 audio must be whole 16-bit samples (an even number of bytes)");
  });

  it("sends 48 kHz audio in frames of 9,600 bytes", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open({ inputSampleRate: 48_000 });
    socket.receive({ type: "voice.state", state: "listening" });
    await opened;
    chat.voice.sendAudio(samples(9_600));
    expect(socket.binary().map((frame) => frame.byteLength)).toEqual([9_600, 9_600]);
  });

  it("refuses audio before voice.open()", () => {
    const { chat } = open();
    expect(() => chat.voice.sendAudio(samples(10))).toThrow("Call voice.open() before sending audio");
  });

  it("rejects open() with the server's error, and the connection goes on", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open();
    socket.receive({ type: "error", error: "Voice unavailable", details: "Voice is off for this agent" });
    await expect(opened).rejects.toThrow("Voice unavailable: Voice is off for this agent");
    // Open again after the refusal.
    const again = chat.voice.open();
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(again).resolves.toBeUndefined();
  });

  it("routes the reply's binary frames to voice.audio between voice.audio.start and .end", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open();
    socket.receive({ type: "voice.state", state: "listening" });
    await opened;
    const starts = record(chat, "voice.audio.start");
    const audio = record(chat, "voice.audio");
    const ends = record(chat, "voice.audio.end");
    const transcripts = record(chat, "voice.transcript");
    const speech = record(chat, "voice.speech_started");

    socket.receiveBinary(samples(10).buffer); // before any reply: dropped
    socket.receive({ type: "voice.speech_started" });
    socket.receive({ type: "voice.transcript", role: "user", text: "reset my password", final: true, messageId: "m1" });
    socket.receive({ type: "voice.audio.start", responseId: "r1", format: { encoding: "pcm16", sampleRate: 16_000 } });
    socket.receiveBinary(samples(1_600).buffer);
    socket.receiveBinary(samples(800, 7).buffer);
    socket.receive({ type: "voice.audio.end", responseId: "r1", interrupted: true });
    socket.receiveBinary(samples(10).buffer); // after the end: dropped

    expect(speech).toHaveLength(1);
    expect(transcripts).toEqual([{ role: "user", text: "reset my password", final: true, messageId: "m1" }]);
    expect(starts).toEqual([{ responseId: "r1", format: { encoding: "pcm16", sampleRate: 16_000 } }]);
    expect(audio.map((piece) => piece.responseId)).toEqual(["r1", "r1"]);
    expect(audio[0]?.pcm).toEqual(samples(1_600));
    expect(audio[1]?.pcm).toEqual(samples(800, 7));
    expect(ends).toEqual([{ responseId: "r1", interrupted: true }]);
    // Raw mode plays nothing, so it leaves voice.interrupt to the program.
    expect(socket.json().filter((frame) => frame.type === "voice.interrupt")).toEqual([]);
  });

  it("interrupt() names the reply whose audio is arriving, or the one given, and nothing when none is known", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open();
    socket.receive({ type: "voice.state", state: "listening" });
    await opened;
    const interrupts = () => socket.json().filter((frame) => frame.type === "voice.interrupt");
    socket.receive({ type: "voice.audio.start", responseId: "r4", format: { encoding: "pcm16", sampleRate: 16_000 } });
    chat.voice.interrupt(120);
    socket.receive({ type: "voice.audio.end", responseId: "r4", interrupted: true });
    chat.voice.interrupt(300, "r4");
    chat.voice.interrupt();
    expect(interrupts()).toEqual([
      { type: "voice.interrupt", responseId: "r4", playedMs: 120 },
      { type: "voice.interrupt", responseId: "r4", playedMs: 300 },
      { type: "voice.interrupt" },
    ]);
  });

  it("takes only voice.start's refusals as its answer, not other errors that come meanwhile", async () => {
    const { chat, socket } = open();
    let settled = false;
    const opened = chat.voice.open();
    opened.then(
      () => (settled = true),
      () => (settled = true),
    );
    // A typed message's error and the message rate limit are not about voice.start.
    socket.receive({ type: "error", error: "Monthly conversation quota exhausted", clientMessageId: "c1" });
    socket.receive({ type: "error", error: "Rate limit exceeded", details: "Too many messages" });
    socket.receive({ type: "error", error: "Invalid request", details: "message: must not be empty" });
    socket.receive({ type: "error", error: "Voice unavailable", details: "Voice is off", clientMessageId: "c2" });
    await Promise.resolve();
    expect(settled).toBe(false);
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(opened).resolves.toBeUndefined();
  });

  it.each([
    ["Voice unavailable", "Voice is busy on this server; try again in a minute"],
    ["Voice limit reached", "Too many voice sessions from this address"],
    ["Monthly voice minutes exhausted", undefined],
    ["Invalid request", "input.sampleRate: must be one of 16000, 24000, 48000"],
    ["Invalid request", "turnDetection: must be server_vad or push_to_talk"],
    ["Invalid request", "language: must be a language tag such as en or en-US"],
  ])("rejects open() on the refusal %s (%s)", async (error, details) => {
    const { chat, socket } = open();
    const opened = chat.voice.open();
    socket.receive({ type: "error", error, ...(details ? { details } : {}) });
    await expect(opened).rejects.toThrow(details ? `${error}: ${details}` : error);
  });

  it("stays stopped when stop() comes before the server's answer and the server starts, then stops", async () => {
    const { chat, socket } = open();
    const states = record(chat, "voice.state");
    const opened = chat.voice.open();
    chat.voice.stop();
    await expect(opened).rejects.toThrow("Voice was stopped");
    socket.receive({ type: "voice.state", state: "listening" });
    socket.receive({ type: "voice.state", state: "stopped" });
    expect(chat.voice.state).toBe("stopped");
    expect(states).toEqual(["stopped"]);
  });

  it("after a stopped start the server refused, the next session's own stop still ends voice", async () => {
    const { chat, socket } = open();
    const first = chat.voice.open();
    chat.voice.stop();
    await expect(first).rejects.toThrow("Voice was stopped");
    socket.receive({ type: "error", error: "Voice limit reached", details: "Too many voice sessions from this address" });
    // The server answers that voice.stop with no "stopped" (it had no session).
    socket.receive({ type: "error", error: "Invalid request", details: "audio: send voice.start first" });
    const second = chat.voice.open();
    socket.receive({ type: "voice.state", state: "listening" });
    await second;
    const states = record(chat, "voice.state");
    socket.receive({ type: "error", error: "Voice limit reached", details: "This voice session reached its time limit" });
    socket.receive({ type: "voice.state", state: "stopped" });
    expect(states).toEqual(["stopped"]);
    expect(chat.voice.state).toBe("stopped");
    expect(() => chat.voice.sendAudio(samples(320))).toThrow("Call voice.open() before sending audio");
  });

  it("a start stopped then opened again is answered by the server in order: the old session's frames do not settle the new one", async () => {
    const { chat, socket } = open();
    const first = chat.voice.open();
    chat.voice.stop();
    await expect(first).rejects.toThrow("Voice was stopped");
    let settled = false;
    const second = chat.voice.open();
    second.then(
      () => (settled = true),
      () => (settled = true),
    );
    // The first start's refusal is not the second's.
    socket.receive({ type: "error", error: "Voice unavailable", details: "Voice is busy on this server; try again in a minute" });
    await Promise.resolve();
    expect(settled).toBe(false);
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(second).resolves.toBeUndefined();
    expect(chat.voice.state).toBe("listening");

    // And an old session's listening and stopped (start accepted, then stopped) pass it by as well.
    chat.voice.stop();
    const third = chat.voice.open();
    settled = false;
    third.then(
      () => (settled = true),
      () => (settled = true),
    );
    socket.receive({ type: "voice.state", state: "thinking" });
    socket.receive({ type: "voice.state", state: "stopped" });
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(chat.voice.state).toBe("stopped");
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(third).resolves.toBeUndefined();
    expect(chat.voice.state).toBe("listening");
  });

  it("ends voice when the socket closes", async () => {
    const { chat, socket } = open();
    const opened = chat.voice.open();
    socket.receive({ type: "voice.state", state: "listening" });
    await opened;
    const states = record(chat, "voice.state");
    socket.close(1006);
    expect(states).toEqual(["stopped"]);
    expect(chat.voice.state).toBe("stopped");
    expect(() => chat.voice.sendAudio(samples(10))).toThrow("Call voice.open() before sending audio");
  });
});

describe("resampler", () => {
  it("averages 48 kHz down to 16 kHz across calls", () => {
    const convert = resampler(48_000, 16_000);
    const first = convert(Float32Array.from([0.5, 0.5, 0.5, -0.25]));
    const second = convert(Float32Array.from([-0.25, -0.25, 1, 1]));
    expect([...first, ...second]).toEqual([Math.round(0.5 * 32767), Math.round(-0.25 * 32767)]);
  });

  it("makes 640 samples of 40 ms at 44.1 kHz (1,764 samples) into 16 kHz, give or take one", () => {
    const convert = resampler(44_100, 16_000);
    const out = convert(new Float32Array(1_764).fill(0.1));
    expect(Math.abs(out.length - 640)).toBeLessThanOrEqual(1);
    expect(out.every((sample) => sample === Math.round(0.1 * 32767))).toBe(true);
  });

  it("clips out-of-range samples", () => {
    expect([...resampler(16_000, 16_000)(Float32Array.from([2, -2]))]).toEqual([32767, -32767]);
  });
});

/** An AudioContext whose clock the test moves, with a microphone behind a ScriptProcessorNode. */
class FakeAudioContext {
  static last: FakeAudioContext;
  currentTime = 0;
  sampleRate = 48_000;
  destination = {};
  closed = false;
  processor: { onaudioprocess: ((event: unknown) => void) | null } | null = null;
  readonly sources: Array<{ startAt: number; stopped: boolean; duration: number }> = [];
  // A blob: worklet blocked (as by a page's CSP): the ScriptProcessorNode is used.
  audioWorklet = { addModule: () => Promise.reject(new Error("Refused by the Content-Security-Policy")) };

  constructor() {
    FakeAudioContext.last = this;
  }

  resume() {
    return Promise.resolve();
  }

  close() {
    this.closed = true;
    return Promise.resolve();
  }

  node() {
    return { connect() {}, disconnect() {} };
  }

  createMediaStreamSource() {
    return this.node();
  }

  createGain() {
    return { ...this.node(), gain: { value: 1 } };
  }

  createScriptProcessor() {
    this.processor = { ...this.node(), onaudioprocess: null };
    return this.processor;
  }

  createBuffer(_channels: number, length: number, rate: number) {
    const data = new Float32Array(length);
    return { duration: length / rate, getChannelData: () => data };
  }

  createBufferSource() {
    const entry = { startAt: -1, stopped: false, duration: 0 };
    this.sources.push(entry);
    return {
      ...this.node(),
      onended: null,
      set buffer(buffer: { duration: number }) {
        entry.duration = buffer.duration;
      },
      start(at: number) {
        entry.startAt = at;
      },
      stop() {
        entry.stopped = true;
      },
    };
  }

  /** 40 ms of microphone audio at 48 kHz. */
  speak(value = 0.2) {
    this.processor?.onaudioprocess?.({ inputBuffer: { getChannelData: () => new Float32Array(1_920).fill(value) } });
  }
}

describe("voice: microphone mode", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubBrowser(getUserMedia: (constraints: unknown) => Promise<unknown>) {
    const track = { enabled: true, stopped: false, stop: () => (track.stopped = true) };
    vi.stubGlobal("AudioContext", FakeAudioContext);
    vi.stubGlobal("navigator", {
      mediaDevices: {
        getUserMedia: (constraints: unknown) =>
          getUserMedia(constraints).then(() => ({ getAudioTracks: () => [track], getTracks: () => [track] })),
      },
    });
    return track;
  }

  it("asks for the microphone with processing on, sends 40 ms frames at 16 kHz once the server listens, and not while muted", async () => {
    const asked: unknown[] = [];
    const track = stubBrowser(async (constraints) => asked.push(constraints));
    const { chat, socket } = open();
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    expect(asked).toEqual([{ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 } }]);
    const context = FakeAudioContext.last;
    context.speak(); // before "listening": not sent
    expect(socket.binary()).toEqual([]);
    socket.receive({ type: "voice.state", state: "listening" });
    await started;
    context.speak();
    context.speak();
    expect(socket.binary().map((frame) => frame.byteLength)).toEqual([1_280, 1_280]);
    expect(new Int16Array(socket.binary()[0] as ArrayBuffer)[0]).toBe(Math.round(0.2 * 32767));

    chat.voice.mute();
    expect(track.enabled).toBe(false);
    context.speak();
    expect(socket.binary()).toHaveLength(2);
    chat.voice.unmute();
    context.speak();
    expect(socket.binary()).toHaveLength(3);

    chat.voice.stop();
    expect(socket.json().at(-1)).toEqual({ type: "voice.stop" });
    expect(track.stopped).toBe(true);
    expect(context.closed).toBe(true);
  });

  it("turns the browser's processing off when asked (fake devices)", async () => {
    const asked: unknown[] = [];
    stubBrowser(async (constraints) => asked.push(constraints));
    const { chat } = open();
    void chat.voice.start({ audioProcessing: false }).catch(() => {});
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toEqual({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 } });
  });

  it("plays the reply and, cut by barge-in, stops it and tells the server how much was heard", async () => {
    stubBrowser(async () => {});
    const { chat, socket } = open();
    const playing = record(chat, "voice.playing");
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "voice.state", state: "listening" });
    await started;
    const context = FakeAudioContext.last;

    socket.receive({ type: "voice.audio.start", responseId: "r1", format: { encoding: "pcm16", sampleRate: 16_000 } });
    for (let i = 0; i < 5; i++) socket.receiveBinary(samples(1_600).buffer); // 5 x 100 ms
    // Gap-free: each piece starts where the previous ends, after a 60 ms lead.
    expect(context.sources.map((source) => Math.round(source.startAt * 1000))).toEqual([60, 160, 260, 360, 460]);
    expect(playing).toEqual([true]);

    context.currentTime = 0.31; // 250 ms heard
    socket.receive({ type: "voice.audio.end", responseId: "r1", interrupted: true });
    expect(socket.json().at(-1)).toEqual({ type: "voice.interrupt", responseId: "r1", playedMs: 250 });
    expect(context.sources.every((source) => source.stopped)).toBe(true);
    expect(playing).toEqual([true, false]);
  });

  it("stops a reply still playing after all its audio arrived when the visitor starts speaking", async () => {
    stubBrowser(async () => {});
    const { chat, socket } = open();
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "voice.state", state: "listening" });
    await started;
    const context = FakeAudioContext.last;
    socket.receive({ type: "voice.audio.start", responseId: "r3", format: { encoding: "pcm16", sampleRate: 16_000 } });
    for (let i = 0; i < 10; i++) socket.receiveBinary(samples(1_600).buffer); // 1 s
    socket.receive({ type: "voice.audio.end", responseId: "r3", interrupted: false });
    context.currentTime = 0.56; // 500 ms heard
    socket.receive({ type: "voice.speech_started" });
    expect(socket.json().at(-1)).toEqual({ type: "voice.interrupt", responseId: "r3", playedMs: 500 });
    expect(context.sources.every((source) => source.stopped)).toBe(true);
    // Nothing playing: speech is just the next turn.
    socket.receive({ type: "voice.speech_started" });
    expect(socket.json().filter((frame) => frame.type === "voice.interrupt")).toHaveLength(1);
  });

  it("interrupt() without playedMs cuts the reply playing and sends what was heard, once", async () => {
    stubBrowser(async () => {});
    const { chat, socket } = open();
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "voice.state", state: "listening" });
    await started;
    const context = FakeAudioContext.last;
    socket.receive({ type: "voice.audio.start", responseId: "r2", format: { encoding: "pcm16", sampleRate: 24_000 } });
    socket.receiveBinary(samples(2_400).buffer);
    context.currentTime = 0.1;
    chat.voice.interrupt();
    socket.receive({ type: "voice.audio.end", responseId: "r2", interrupted: true });
    expect(socket.json().filter((frame) => frame.type === "voice.interrupt")).toEqual([
      { type: "voice.interrupt", responseId: "r2", playedMs: 40 },
    ]);
  });

  it("rejects with a readable message when the microphone is refused, and sends no voice.start", async () => {
    stubBrowser(async () => {
      throw Object.assign(new Error("Permission denied"), { name: "NotAllowedError" });
    });
    const { chat, socket } = open();
    const errors = record(chat, "voice.error");
    await expect(chat.voice.start()).rejects.toThrow("Microphone access was refused.");
    expect(errors).toEqual([{ code: "denied", message: "Microphone access was refused." }]);
    expect(socket.json().some((frame) => frame.type === "voice.start")).toBe(false);
    expect(FakeAudioContext.last.closed).toBe(true);
  });

  it("rejects when there is no microphone", async () => {
    stubBrowser(async () => {
      throw Object.assign(new Error("Requested device not found"), { name: "NotFoundError" });
    });
    const { chat } = open();
    await expect(chat.voice.start()).rejects.toMatchObject({ code: "no_microphone", message: "No microphone was found." });
  });

  it("rejects in a browser without microphone access (no mediaDevices: e.g. not https)", async () => {
    vi.stubGlobal("AudioContext", FakeAudioContext);
    vi.stubGlobal("navigator", {});
    const { chat } = open();
    const errors = record(chat, "voice.error");
    await expect(chat.voice.start()).rejects.toMatchObject({
      code: "unsupported",
      message: "This browser cannot record audio here (voice needs a microphone and a secure https page).",
    });
    expect(errors.map((error) => error.code)).toEqual(["unsupported"]);
  });

  it("releases the microphone when the server refuses voice", async () => {
    const track = stubBrowser(async () => {});
    const { chat, socket } = open();
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "error", error: "Voice limit reached", details: "Too many voice sessions from this address" });
    await expect(started).rejects.toThrow("Voice limit reached: Too many voice sessions from this address");
    expect(track.stopped).toBe(true);
  });

  it("stop() during the microphone prompt releases the microphone and sends no voice.start", async () => {
    let grant: () => void = () => {};
    const track = stubBrowser(() => new Promise<void>((resolve) => (grant = resolve)));
    const { chat, socket } = open();
    const errors = record(chat, "voice.error");
    const started = chat.voice.start();
    started.catch(() => {});
    const context = FakeAudioContext.last;
    chat.voice.stop(); // End voice, or the panel closed, while the browser asks
    grant();
    await expect(started).rejects.toThrow("Voice was stopped");
    expect(socket.json().filter((frame) => String(frame.type).startsWith("voice."))).toEqual([]);
    expect(track.stopped).toBe(true);
    expect(context.closed).toBe(true);
    expect(errors).toEqual([]);
    expect(chat.voice.state).toBe("stopped");
    // Voice can start again.
    stubBrowser(async () => {});
    const again = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "voice.state", state: "listening" });
    await expect(again).resolves.toBeUndefined();
  });

  it("closing the connection during the microphone prompt releases the microphone and says why", async () => {
    let grant: () => void = () => {};
    const track = stubBrowser(() => new Promise<void>((resolve) => (grant = resolve)));
    const { chat, socket } = open();
    const errors = record(chat, "voice.error");
    const started = chat.voice.start();
    started.catch(() => {});
    chat.close();
    grant();
    await expect(started).rejects.toThrow("The connection closed");
    expect(track.stopped).toBe(true);
    expect(errors).toEqual([{ code: "server", message: "The connection closed" }]);
    expect(socket.json().some((frame) => frame.type === "voice.start")).toBe(false);
  });

  it("a second start() while the first waits for the microphone is refused, and one microphone is opened", async () => {
    let asked = 0;
    let grant: () => void = () => {};
    stubBrowser(() => {
      asked += 1;
      return new Promise<void>((resolve) => (grant = resolve));
    });
    const { chat, socket } = open();
    const first = chat.voice.start();
    await expect(chat.voice.start()).rejects.toThrow("Voice is already on: stop() it first");
    grant();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    socket.receive({ type: "voice.state", state: "listening" });
    await first;
    expect(asked).toBe(1);
    expect(socket.json().filter((frame) => frame.type === "voice.start")).toHaveLength(1);
  });

  it("stop() while voice.start waits releases the microphone, and the late listening is ignored", async () => {
    const track = stubBrowser(async () => {});
    const { chat, socket } = open();
    const errors = record(chat, "voice.error");
    const started = chat.voice.start();
    await vi.waitFor(() => expect(socket.json().at(-1)?.type).toBe("voice.start"));
    chat.voice.stop();
    await expect(started).rejects.toThrow("Voice was stopped");
    expect(track.stopped).toBe(true);
    expect(errors).toEqual([]);
    socket.receive({ type: "voice.state", state: "listening" });
    socket.receive({ type: "voice.state", state: "stopped" });
    expect(chat.voice.state).toBe("stopped");
  });

  it("releases the microphone when the audio graph cannot be built after access was granted", async () => {
    const track = stubBrowser(async () => {});
    const { chat, socket } = open();
    const start = chat.voice.start();
    const context = FakeAudioContext.last;
    context.createMediaStreamSource = () => {
      throw new Error("The stream has no audio track");
    };
    await expect(start).rejects.toMatchObject({
      code: "failed",
      message: "The microphone could not be started (The stream has no audio track).",
    });
    expect(track.stopped).toBe(true);
    expect(context.closed).toBe(true);
    expect(socket.json().some((frame) => frame.type === "voice.start")).toBe(false);
  });
});
