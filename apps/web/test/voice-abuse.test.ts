// Voice over parley.v1 under abuse, over a real socket, with the embedded VAD and a recogniser that
// is either PocketSphinx (where installed) or a stand-in that records its calls: a flood of tiny
// frames, short turns that would go uncounted, recognition left behind by a visitor who left.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createSpeechEngines,
  pcmToBytes,
  type SpeechEngines,
  type SpeechToText,
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
const SECRET = "voice-abuse-secret-0123456789abcdef0123456789";
const START = { type: "voice.start", input: { encoding: "pcm16", sampleRate: 16_000 }, output: { encoding: "pcm16", sampleRate: 16_000 } };

let ctx: TestContext;
let engines: SpeechEngines;
let http: Server;
let sockets: WidgetSocketServer;
let url: string;
let fakeEngines: SpeechEngines;
/** Calls of the fake recogniser (agent "p-fake"): the signal each was given, and whether it was aborted. */
const fakeCalls: { signal: AbortSignal | undefined }[] = [];

beforeAll(async () => {
  ctx = await createMessagingContext();
  engines = createSpeechEngines(speechConfigFrom(speechSettingsSchema.parse({})));
  ctx.live = createMemoryLiveBus();
  for (const id of ["p-flood", "p-minutes", "p-fake"]) {
    await ctx.db.prisma.agent.create({
      data: {
        id,
        workspaceId: "ws-demo",
        name: id,
        allowedOrigins: [ORIGIN],
        voiceEnabled: true,
        sources: { create: [{ sourceId: "src-start" }] },
      },
    });
  }
  // A recogniser that never answers: what happens to its job when the visitor leaves.
  const fakeStt: SpeechToText = {
    name: "fake",
    transcribe: (_audio, options) =>
      new Promise((_resolve, reject) => {
        fakeCalls.push({ signal: options.signal });
        options.signal?.addEventListener("abort", () => reject(options.signal?.reason));
      }),
  } as SpeechToText;
  fakeEngines = { ...engines, stt: fakeStt, close: async () => {} };
  ctx.speech = engines.stt ? engines : fakeEngines;
  sockets = createWidgetSocketServer({ getContext: async () => ctx, secret: () => SECRET });
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

async function connect(agentId: string) {
  const ws = new WebSocket(url, ["parley.v1"], { origin: ORIGIN });
  const frames: ServerFrame[] = [];
  ws.on("message", (data, isBinary) => {
    if (!isBinary) frames.push(JSON.parse(data.toString()) as ServerFrame);
  });
  await once(ws, "open");
  ws.send(JSON.stringify({ type: "hello", agentId }));
  const until = async (test: (frame: ServerFrame) => boolean, timeoutMs = 10_000) => {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const found = frames.find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no such frame; got ${JSON.stringify(frames).slice(0, 2_000)}`);
  };
  await until((frame) => frame.type === "ready");
  return { ws, frames, until };
}

describe("voice under abuse", () => {
  // Each frame costs the server something whatever its size: frames under 10 ms are refused, every
  // frame spends at least 10 ms of the speed limit, and the refusals come back at most once a
  // second each (the flood is not echoed back).
  it("refuses a flood of empty audio frames, and answers it with a few error frames, not one each", async () => {
    const client = await connect("p-flood");
    client.ws.send(JSON.stringify(START));
    await client.until((frame) => frame.type === "voice.state");
    for (let i = 0; i < 20_000; i++) client.ws.send(Buffer.alloc(0));
    await client.until((frame) => frame.type === "error");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const errors = client.frames.filter((frame) => frame.type === "error").map((frame) => (frame as { details?: string }).details);
    expect(new Set(errors)).toEqual(
      new Set(["audio: a frame must hold at least 10 ms of audio", "audio: sent faster than 1.5 times real time"]),
    );
    expect(errors.length).toBeLessThanOrEqual(4);
    client.ws.close();
  });

  // A session's last part of a second is counted (rounded up) when it stops: short sessions are
  // never free of the month's voice minutes.
  it("counts a short spoken turn in the month's voice minutes", async () => {
    if (!engines.stt) return;
    const client = await connect("p-minutes");
    client.ws.send(JSON.stringify({ ...START, turnDetection: "push_to_talk" }));
    await client.until((frame) => frame.type === "voice.state");
    const voice = engines.tts.voices[0] ?? "";
    const hello = (await engines.tts.synthesize("Hello.", { voice, language: "en" })).subarray(0, 16 * 900);
    for (let offset = 0; offset < hello.length; offset += 640) {
      client.ws.send(pcmToBytes(hello.subarray(offset, offset + 640)));
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    client.ws.send(JSON.stringify({ type: "voice.commit" }));
    // The turn was heard and answered.
    await client.until((frame) => frame.type === "message", 30_000);
    client.ws.send(JSON.stringify({ type: "voice.stop" }));
    await client.until((frame) => frame.type === "voice.state" && (frame as { state: string }).state === "stopped");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const usage = await ctx.db.prisma.usageMonth.findMany({ where: { agentId: "p-minutes" } });
    expect(usage.reduce((sum, row) => sum + (row as { voiceSeconds: number }).voiceSeconds, 0)).toBeGreaterThanOrEqual(1);
    client.ws.close();
  }, 60_000);

  // Recognition is shared by every visitor of the instance: a job of a visitor who left is
  // abandoned at once, so leaving and coming back cannot pile up work that delays everyone else.
  it("abandons the recognition of a session that closed", async () => {
    const saved = ctx.speech;
    ctx.speech = fakeEngines;
    try {
      const client = await connect("p-fake");
      client.ws.send(JSON.stringify({ ...START, turnDetection: "push_to_talk" }));
      await client.until((frame) => frame.type === "voice.state");
      const tone = new Int16Array(16 * 500).map((_, i) => Math.round(8_000 * Math.sin(i / 5)));
      for (let offset = 0; offset < tone.length; offset += 1_600) client.ws.send(pcmToBytes(tone.subarray(offset, offset + 1_600)));
      client.ws.send(JSON.stringify({ type: "voice.commit" }));
      const started = Date.now();
      while (fakeCalls.length === 0 && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fakeCalls).toHaveLength(1);
      client.ws.close();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fakeCalls[0]!.signal?.aborted).toBe(true);
    } finally {
      ctx.speech = saved;
    }
  });
});
