// Voice over parley.v1, end to end over a real socket: the app's /ws handler on 127.0.0.1, a real
// `ws` client sending PCM16 audio, a throwaway database, and the embedded speech engines (Silero
// VAD, flite; PocketSphinx where installed, as `.ci/run` does). The visitor's audio is flite's own
// voice saying the question, made at test time.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { replyToConversation } from "@parley/core/conversations";
import {
  concatPcm,
  createSpeechEngines,
  pcmToBytes,
  resample,
  type SpeechEngines,
  speechConfigFrom,
  speechSettingsSchema,
} from "@parley/core/voice";
import { createMemoryLiveBus, type ServerFrame } from "@parley/core/widget";
import type { TestContext } from "@parley/testing/context";
import { createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createWidgetSocketServer, type WidgetSocketServer } from "~/server/widget-socket.ts";

const ORIGIN = "http://shop.test:8080";
const SECRET = "voice-test-secret-0123456789abcdef0123456789";
const UTTERANCE_MAX_MS = 4_000;

let ctx: TestContext;
let engines: SpeechEngines;
let http: Server;
let sockets: WidgetSocketServer;
let url: string;
/** "How do I reset my password" in flite's voice, 16 kHz, with silence around it. */
let question: Int16Array;
const recognition = () => engines.stt !== null;

async function createAgent(id: string, fields: Record<string, unknown> = {}) {
  await ctx.db.prisma.agent.create({
    data: {
      id,
      workspaceId: "ws-demo",
      name: `Voice agent ${id}`,
      allowedOrigins: [ORIGIN],
      voiceEnabled: true,
      sources: { create: [{ sourceId: "src-start" }, { sourceId: "src-billing" }] },
      ...fields,
    },
  });
}

function silence(ms: number, rate = 16_000): Int16Array {
  return new Int16Array((rate * ms) / 1000);
}

beforeAll(async () => {
  ctx = await createMessagingContext();
  engines = createSpeechEngines(speechConfigFrom(speechSettingsSchema.parse({})));
  ctx.speech = engines;
  ctx.live = createMemoryLiveBus();
  await createAgent("v-on");
  // A short answer keeps the spoken turn short: its audio is played out before the turn ends.
  await ctx.db.prisma.source.create({
    data: {
      id: "src-voice",
      workspaceId: "ws-demo",
      name: "Voice answers",
      articles: {
        create: [
          { title: "Reset your password", content: "To reset your password, choose Forgot password on the sign-in page.", published: true },
        ],
      },
    },
  });
  await createAgent("v-spoken", { sources: { create: [{ sourceId: "src-voice" }] } });
  await ctx.db.prisma.webhookEndpoint.create({
    data: {
      workspaceId: "ws-demo",
      url: "https://hooks.example.com/parley",
      allAgents: false,
      agentIds: ["v-spoken"],
      eventTypes: ["conversation.message"],
      secret: "whsec_dm9pY2UtdGVzdC1zZWNyZXQ=",
    },
  });
  await createAgent("v-off", { voiceEnabled: false });
  await createAgent("v-quota", { monthlyVoiceMinutesLimit: 0 });
  await createAgent("v-one-session", { voiceSessionsPerIp: 1 });
  await createAgent("v-short", { voiceMinutesPerSession: 1 });
  const voice = engines.tts.voices[0] ?? "";
  question = concatPcm([
    silence(500),
    await engines.tts.synthesize("How do I reset my password?", { voice, language: "en" }),
    silence(1_200),
  ]);
  // Three voice sessions at once on this instance: the tests hold at most two, the cap's test a third.
  sockets = createWidgetSocketServer({
    getContext: async () => ctx,
    secret: () => SECRET,
    voiceUtteranceMaxMs: UTTERANCE_MAX_MS,
    voiceSessionsPerInstance: 3,
  });
  http = createServer((_request, response) => response.writeHead(404).end());
  http.on("upgrade", (request, socket, head) => sockets.handleUpgrade(request, socket, head));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`;
}, 60_000);

afterAll(async () => {
  await sockets?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await engines?.close();
  await ctx?.live?.close();
  await ctx?.close();
});

interface Client {
  ws: WebSocket;
  frames: ServerFrame[];
  /** Reply audio received, per voice.audio.start's responseId. */
  audio: Map<string, number>;
  /** The next frame of this type (and matching `where`); frames already received count. */
  next<T extends ServerFrame["type"]>(
    type: T,
    timeoutMs?: number,
    where?: (frame: Extract<ServerFrame, { type: T }>) => boolean,
  ): Promise<Extract<ServerFrame, { type: T }>>;
  send(frame: unknown): void;
  /** Sends 16 kHz audio in 40 ms frames at real time (converted to `rate`). */
  speak(pcm: Int16Array, rate?: number): Promise<void>;
}

async function connect(agentId: string): Promise<Client> {
  const ws = new WebSocket(url, ["parley.v1"], { origin: ORIGIN });
  const frames: ServerFrame[] = [];
  const consumed = new Set<ServerFrame>();
  const audio = new Map<string, number>();
  let responseId = "";
  const waiters: Array<() => void> = [];
  ws.on("message", (data, isBinary) => {
    if (isBinary) {
      audio.set(responseId, (audio.get(responseId) ?? 0) + (data as Buffer).byteLength);
      return;
    }
    const frame = JSON.parse(data.toString()) as ServerFrame;
    if (frame.type === "voice.audio.start") responseId = frame.responseId;
    frames.push(frame);
    for (const wake of waiters.splice(0)) wake();
  });
  const client: Client = {
    ws,
    frames,
    audio,
    send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next(type, timeoutMs = 10_000, where = () => true) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} frame; got ${JSON.stringify(frames)}`)), timeoutMs);
        const check = () => {
          const found = frames.find(
            (frame) => frame.type === type && !consumed.has(frame) && where(frame as Extract<ServerFrame, { type: typeof type }>),
          );
          if (found) {
            consumed.add(found);
            clearTimeout(timer);
            resolve(found as Extract<ServerFrame, { type: typeof type }>);
          } else waiters.push(check);
        };
        check();
      });
    },
    async speak(pcm, rate = 16_000) {
      const converted = resample(pcm, 16_000, rate);
      const frame = (rate * 40) / 1000;
      const started = Date.now();
      for (let offset = 0, sent = 0; offset < converted.length; offset += frame, sent += 40) {
        ws.send(pcmToBytes(converted.subarray(offset, offset + frame)));
        const ahead = started + sent - Date.now();
        if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
      }
    },
  };
  await once(ws, "open");
  client.send({ type: "hello", agentId });
  await client.next("ready");
  return client;
}

const START = { type: "voice.start", input: { encoding: "pcm16", sampleRate: 16_000 }, output: { encoding: "pcm16", sampleRate: 24_000 } };

/** The connection still answers a typed message after a voice error. */
async function stillUsable(client: Client) {
  client.send({ type: "message", text: "How do I reset my password?" });
  const reply = await client.next("message");
  expect(reply.role).toBe("agent");
}

describe("voice refused, the connection stays usable", () => {
  it("refuses voice.start when the agent has voice off, and when its voice minutes are used up", async () => {
    const off = await connect("v-off");
    expect((await off.next("ready").catch(() => null)) ?? off.frames[0]).toMatchObject({ config: { voice: false } });
    off.send(START);
    expect(await off.next("error")).toEqual({ type: "error", error: "Voice unavailable", details: "Voice is off for this agent" });
    await stillUsable(off);
    off.ws.close();

    const quota = await connect("v-quota");
    quota.send(START);
    expect(await quota.next("error")).toEqual({ type: "error", error: "Monthly voice minutes exhausted" });
    quota.ws.close();
  });

  it("refuses audio before voice.start, and voice frames before it", async () => {
    const client = await connect("v-on");
    client.ws.send(pcmToBytes(silence(40)));
    expect(await client.next("error")).toEqual({ type: "error", error: "Invalid request", details: "audio: send voice.start first" });
    // Said once a second at most: a client that keeps sending gets no flood back.
    client.send({ type: "voice.commit" });
    await stillUsable(client);
    expect(client.frames.filter((frame) => frame.type === "error")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    client.send({ type: "voice.commit" });
    expect((await client.next("error")).details).toBe("audio: send voice.start first");
    client.ws.close();
  });

  it("takes audio and voice.stop sent right after voice.start in order, and refuses a language the engines do not speak", async () => {
    const client = await connect("v-on");
    client.send(START);
    client.ws.send(pcmToBytes(silence(40)));
    client.send({ type: "voice.stop" });
    expect(await client.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    expect(await client.next("voice.state")).toEqual({ type: "voice.state", state: "stopped" });
    expect(client.frames.filter((frame) => frame.type === "error")).toEqual([]);

    client.send({ ...START, language: "fr" });
    expect(await client.next("error")).toEqual({
      type: "error",
      error: "Voice unavailable",
      details: "language: this server's speech engines do not understand it",
    });
    client.ws.close();
  });

  it("takes hello, voice.start, audio and voice.stop sent all at once, without waiting for any answer", async () => {
    const ws = new WebSocket(url, ["parley.v1"], { origin: ORIGIN });
    const frames: ServerFrame[] = [];
    ws.on("message", (data, isBinary) => {
      if (!isBinary) frames.push(JSON.parse(data.toString()) as ServerFrame);
    });
    await once(ws, "open");
    ws.send(JSON.stringify({ type: "hello", agentId: "v-on" }));
    ws.send(JSON.stringify(START));
    ws.send(pcmToBytes(silence(40)));
    ws.send(JSON.stringify({ type: "voice.stop" }));
    const started = Date.now();
    while (!frames.some((frame) => frame.type === "voice.state" && frame.state === "stopped") && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(frames.map((frame) => (frame.type === "voice.state" ? `${frame.type}:${frame.state}` : frame.type))).toEqual([
      "ready",
      "voice.state:listening",
      "voice.state:stopped",
    ]);
    ws.close();
  });

  it("refuses an unsupported encoding or rate with the field named", async () => {
    const client = await connect("v-on");
    client.send({ ...START, input: { encoding: "opus", sampleRate: 16_000 } });
    expect((await client.next("error")).details).toBe("input.encoding: must be pcm16");
    client.send({ ...START, output: { encoding: "pcm16", sampleRate: 44_100 } });
    expect((await client.next("error")).details).toBe("output.sampleRate: must be one of 16000, 24000, 48000");
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    await stillUsable(client);
    client.ws.close();
  });

  it("refuses frames over 100 ms, half samples, bad base64, and audio faster than 1.5x real time", async () => {
    const client = await connect("v-on");
    client.send(START);
    expect(await client.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    client.ws.send(pcmToBytes(silence(120)));
    expect((await client.next("error")).details).toBe("audio: a frame must hold at most 100 ms of audio");
    client.ws.send(Buffer.alloc(641));
    expect((await client.next("error")).details).toBe("audio: must be whole 16-bit samples (an even number of bytes)");
    client.send({ type: "voice.append", audio: "not base64!" });
    expect((await client.next("error")).details).toBe("audio: must be base64");
    for (let i = 0; i < 30; i++) client.ws.send(pcmToBytes(silence(100)));
    expect(await client.next("error")).toEqual({
      type: "error",
      error: "Rate limit exceeded",
      details: "audio: sent faster than 1.5 times real time",
    });
    await stillUsable(client);
    client.ws.close();
  });

  it("drops an utterance longer than the longest allowed, and says so", async () => {
    const client = await connect("v-on");
    client.send({ ...START, turnDetection: "push_to_talk" });
    await client.next("voice.state");
    await client.speak(silence(UTTERANCE_MAX_MS + 400));
    expect((await client.next("error")).details).toBe("audio: an utterance must be at most 30 seconds; it was dropped");
    client.ws.close();
  });

  it("refuses a voice session over the instance's cap, and takes one again once a session stops", async () => {
    await createAgent("v-many", { voiceSessionsPerIp: 10 });
    const clients = await Promise.all([connect("v-many"), connect("v-many"), connect("v-many"), connect("v-many")]);
    for (const client of clients.slice(0, 3)) {
      client.send(START);
      expect(await client.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    }
    const fourth = clients[3] as Client;
    fourth.send(START);
    expect(await fourth.next("error")).toEqual({
      type: "error",
      error: "Voice unavailable",
      details: "Voice is busy on this server; try again in a minute",
    });
    clients[0]?.send({ type: "voice.stop" });
    await clients[0]?.next("voice.state");
    fourth.send(START);
    expect(await fourth.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    for (const client of clients) client.ws.close();
    // The sessions end when their sockets close, freeing the instance's places for the next tests.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it("reads a team member's reply aloud while voice is on", async () => {
    const client = await connect("v-spoken");
    client.send({ type: "message", text: "Can a person help me?" });
    await client.next("message", 20_000);
    const ready = client.frames.filter((frame) => frame.type === "ready").at(-1);
    const conversationId = ready?.type === "ready" ? (ready.conversationId ?? "") : "";
    client.send(START);
    await client.next("voice.state");
    const admin = { workspaceId: "ws-demo", userId: "user-admin", role: "owner" as const };
    await replyToConversation(ctx.db, admin, { id: conversationId, text: "Hi, this is **Sam**." }, new Date(), ctx.live);
    expect(await client.next("message", 10_000, (frame) => frame.role === "human")).toMatchObject({ text: "Hi, this is **Sam**." });
    const start = await client.next("voice.audio.start", 10_000);
    expect(await client.next("voice.audio.end", 10_000)).toEqual({
      type: "voice.audio.end",
      responseId: start.responseId,
      interrupted: false,
    });
    expect(client.audio.get(start.responseId)).toBeGreaterThan(0);
    client.ws.close();
  }, 30_000);

  it("allows the agent's voice sessions per IP, and ends a session over its minutes", async () => {
    const first = await connect("v-one-session");
    first.send(START);
    await first.next("voice.state");
    const second = await connect("v-one-session");
    second.send(START);
    expect(await second.next("error")).toEqual({
      type: "error",
      error: "Voice limit reached",
      details: "Too many voice sessions from this address",
    });
    first.send({ type: "voice.stop" });
    expect(await first.next("voice.state")).toEqual({ type: "voice.state", state: "stopped" });
    // The slot is free again once the first session stopped.
    second.send(START);
    expect(await second.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    first.ws.close();
    second.ws.close();

    const short = await connect("v-short");
    short.send(START);
    await short.next("voice.state");
    const realNow = ctx.now;
    ctx.now = () => new Date(Date.now() + 61_000);
    try {
      short.ws.send(pcmToBytes(silence(40)));
      expect(await short.next("error")).toEqual({
        type: "error",
        error: "Voice limit reached",
        details: "This voice session reached its time limit",
      });
      expect(await short.next("voice.state")).toEqual({ type: "voice.state", state: "stopped" });
    } finally {
      ctx.now = realNow;
    }
    // The session is over, its slot free: a new one starts.
    short.send(START);
    expect(await short.next("voice.state")).toEqual({ type: "voice.state", state: "listening" });
    await stillUsable(short);
    short.ws.close();
  });
});

describe.runIf(process.env.PARLEY_SKIP_SPEECH !== "1")("a spoken turn", () => {
  it("hears the question, answers it in text and in audio, and stores the transcript as a spoken turn", async (test) => {
    if (!recognition()) test.skip("PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    const client = await connect("v-spoken");
    client.send({ ...START, input: { encoding: "pcm16", sampleRate: 48_000 } });
    await client.next("voice.state");
    await client.speak(question, 48_000);
    expect(await client.next("voice.speech_started")).toEqual({ type: "voice.speech_started" });
    expect(await client.next("voice.speech_stopped")).toEqual({ type: "voice.speech_stopped" });
    const heard = await client.next("voice.transcript");
    expect(heard).toMatchObject({ role: "user", final: true });
    expect(heard.text.toLowerCase()).toContain("password");
    const reply = await client.next("message");
    expect(reply).toMatchObject({ role: "agent", voice: true });
    expect(reply.text.toLowerCase()).toContain("password");
    const start = await client.next("voice.audio.start");
    expect(start.format).toEqual({ encoding: "pcm16", sampleRate: 24_000 });
    const end = await client.next("voice.audio.end", 40_000);
    expect(end).toEqual({ type: "voice.audio.end", responseId: start.responseId, interrupted: false });
    expect(client.audio.get(start.responseId)).toBeGreaterThan(24_000 * 2);
    const spoken = await client.next("voice.transcript", 40_000, (frame) => frame.role === "agent");
    expect(spoken).toMatchObject({ role: "agent", final: true, messageId: reply.id });

    const ready = client.frames.filter((frame) => frame.type === "ready").at(-1);
    const conversationId = ready?.type === "ready" ? (ready.conversationId ?? "") : "";
    const messages = await ctx.db.prisma.message.findMany({
      where: { conversationId },
      orderBy: { sequence: "asc" },
      select: { role: true, text: true, voice: true, interrupted: true },
    });
    expect(messages).toEqual([
      { role: "user", text: heard.text, voice: true, interrupted: false },
      { role: "agent", text: reply.text, voice: true, interrupted: false },
    ]);
    const event = await ctx.db.prisma.webhookEvent.findFirst({ where: { type: "conversation.message" }, orderBy: { createdAt: "desc" } });
    expect(JSON.parse(event?.payload ?? "{}").data).toMatchObject({ channel: "voice" });
    const usage = await ctx.db.prisma.usageMonth.findFirst({ where: { agentId: "v-spoken" } });
    expect(usage?.voiceSeconds).toBeGreaterThanOrEqual(2);
    client.ws.close();
  }, 60_000);

  it("takes push-to-talk audio as base64 voice.append frames, ends the turn on voice.commit, and keeps text chat working beside voice", async (test) => {
    if (!recognition()) test.skip("PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    const client = await connect("v-spoken");
    client.send({ ...START, turnDetection: "push_to_talk" });
    await client.next("voice.state");
    client.send({ type: "voice.commit" });
    const frame = 16_000 / 10;
    const started = Date.now();
    for (let offset = 0, sent = 0; offset < question.length; offset += frame, sent += 100) {
      client.send({ type: "voice.append", audio: pcmToBytes(question.subarray(offset, offset + frame)).toString("base64") });
      const ahead = started + sent - Date.now();
      if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
    }
    // Nothing is taken as a turn until the visitor commits it.
    expect(client.frames.some((frame) => frame.type === "voice.transcript")).toBe(false);
    client.send({ type: "voice.commit" });
    const heard = await client.next("voice.transcript", 20_000);
    expect(heard.text.toLowerCase()).toContain("password");
    await client.next("voice.audio.end", 40_000);
    client.send({ type: "message", text: "Thanks, and how do I reset my password again?" });
    const typed = await client.next("message", 20_000, (frame) => frame.voice === undefined);
    expect(typed.role).toBe("agent");
    client.ws.close();
  }, 60_000);

  it("stops the reply when the visitor talks over it and stores what was played, marked interrupted", async (test) => {
    if (!recognition()) test.skip("PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    await createAgent("v-barge");
    const client = await connect("v-barge");
    client.send(START);
    await client.next("voice.state");
    await client.speak(question);
    const reply = await client.next("message", 20_000);
    const start = await client.next("voice.audio.start");
    // The visitor speaks again while the reply plays.
    await client.speak(question.subarray(0, 16_000 * 2));
    const end = await client.next("voice.audio.end");
    expect(end).toEqual({ type: "voice.audio.end", responseId: start.responseId, interrupted: true });
    client.send({ type: "voice.interrupt", playedMs: 1_500 });
    const cut = await client.next("voice.transcript", 20_000, (frame) => frame.role === "agent");
    expect(cut).toMatchObject({ role: "agent", final: true, messageId: reply.id });
    const stored = await ctx.db.prisma.message.findUniqueOrThrow({ where: { id: reply.id }, select: { text: true, interrupted: true } });
    expect(stored.interrupted).toBe(true);
    expect(stored.text.length).toBeGreaterThan(0);
    expect(stored.text.length).toBeLessThan(reply.text.length);
    client.ws.close();
  }, 60_000);

  it("keeps a reply whole when voice ends while it plays: the audio stops, the text is the visitor's to read", async (test) => {
    if (!recognition()) test.skip("PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    const client = await connect("v-on");
    client.send(START);
    await client.next("voice.state");
    await client.speak(question);
    const reply = await client.next("message", 20_000, (frame) => frame.role === "agent");
    const start = await client.next("voice.audio.start", 20_000);
    client.send({ type: "voice.stop" });
    expect(await client.next("voice.audio.end")).toEqual({ type: "voice.audio.end", responseId: start.responseId, interrupted: true });
    await client.next("voice.state", 5_000, (frame) => frame.state === "stopped");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const stored = await ctx.db.prisma.message.findUniqueOrThrow({ where: { id: reply.id }, select: { text: true, interrupted: true } });
    expect(stored).toEqual({ text: reply.text, interrupted: false });
    client.ws.close();
  }, 60_000);

  it("cuts only the reply a voice.interrupt names: a late one about the previous reply leaves the next alone", async (test) => {
    if (!recognition()) test.skip("PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    const client = await connect("v-on");
    client.send({ ...START, turnDetection: "push_to_talk" });
    await client.next("voice.state");
    await client.speak(question);
    client.send({ type: "voice.commit" });
    const first = await client.next("voice.audio.start", 30_000);
    // The visitor asks again while the first reply plays: the new turn cuts it.
    await client.speak(question);
    client.send({ type: "voice.commit" });
    expect(await client.next("voice.audio.end", 10_000)).toEqual({
      type: "voice.audio.end",
      responseId: first.responseId,
      interrupted: true,
    });
    const second = await client.next("voice.audio.start", 30_000);
    // The page's word about the first reply arrives late, while the second plays.
    client.send({ type: "voice.interrupt", responseId: first.responseId, playedMs: 400 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(client.frames.some((frame) => frame.type === "voice.audio.end" && frame.responseId === second.responseId)).toBe(false);
    client.send({ type: "voice.interrupt", responseId: second.responseId });
    expect(await client.next("voice.audio.end")).toEqual({ type: "voice.audio.end", responseId: second.responseId, interrupted: true });
    client.ws.close();
  }, 90_000);
});
