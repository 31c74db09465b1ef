// The OpenAI-compatible speech engines (voice/stt-openai.ts, voice/tts-openai.ts) against a fake
// endpoint on 127.0.0.1: the exact requests (path, headers, multipart fields, JSON body), answers
// in WAV or raw 24 kHz PCM brought to 16 kHz, and errors that name the status but never the key.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodeWav, encodeWav, pcmToBytes } from "../src/voice/pcm.ts";
import { OpenAiSpeechToText } from "../src/voice/stt-openai.ts";
import { OpenAiTextToSpeech } from "../src/voice/tts-openai.ts";

const API_KEY = "sk-speech-test-0123456789";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

let server: Server;
let baseUrl: string;
const requests: Recorded[] = [];
let answer: (request: Recorded, response: ServerResponse) => void;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const recorded = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) };
    requests.push(recorded);
    answer(recorded, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
});

const json = (status: number, body: unknown) => (_: Recorded, response: ServerResponse) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
};

/** The multipart form of a recorded request, parsed by the platform's own parser. */
function formOf(request: Recorded): Promise<FormData> {
  return new Response(new Uint8Array(request.body), { headers: { "content-type": String(request.headers["content-type"]) } }).formData();
}

function sine(frequency: number, rate: number, seconds: number): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(8_000 * Math.sin((2 * Math.PI * frequency * i) / rate)),
  );
}

const utterance = sine(300, 16_000, 0.5);

describe("speech recognition endpoint", () => {
  it("posts the utterance as a WAV with the model and language, and reads the text", async () => {
    answer = json(200, { text: "How do I reset my password?" });
    const stt = new OpenAiSpeechToText({ baseUrl, apiKey: API_KEY, model: "whisper-1" });
    expect(stt.name).toBe("openai-compatible");
    expect(await stt.transcribe(utterance, { language: "en-US" })).toEqual({ text: "How do I reset my password?" });

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/v1/audio/transcriptions");
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(request!);
    expect([...form.keys()].sort()).toEqual(["file", "language", "model"]);
    expect(form.get("model")).toBe("whisper-1");
    expect(form.get("language")).toBe("en");
    const file = form.get("file") as File;
    expect(file.name).toBe("utterance.wav");
    expect(file.type).toBe("audio/wav");
    const wav = decodeWav(new Uint8Array(await file.arrayBuffer()));
    expect(wav.sampleRate).toBe(16_000);
    expect([...wav.samples]).toEqual([...utterance]);
  });

  it("sends no Authorization header without a key", async () => {
    answer = json(200, { text: "" });
    await new OpenAiSpeechToText({ baseUrl, model: "local" }).transcribe(utterance, { language: "fr" });
    expect(requests[0]!.headers.authorization).toBeUndefined();
    expect((await formOf(requests[0]!)).get("language")).toBe("fr");
  });

  it("names the status and the endpoint's message, never the key or the audio", async () => {
    answer = json(401, { error: { message: `Incorrect API key provided: ${API_KEY}.`, type: "invalid_request_error" } });
    const stt = new OpenAiSpeechToText({ baseUrl, apiKey: API_KEY, model: "whisper-1" });
    const error = (await stt.transcribe(utterance, { language: "en" }).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe("The speech recognition endpoint answered 401: Incorrect API key provided: [API key].");
    expect(error.message).not.toContain(API_KEY);

    answer = (_, response) => {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`bad gateway ${API_KEY}\n${"x".repeat(1_000)}`);
    };
    const gateway = (await stt.transcribe(utterance, { language: "en" }).catch((caught: unknown) => caught)) as Error;
    expect(gateway.message).toMatch(/^The speech recognition endpoint answered 502: bad gateway \[API key\] x+$/);
    expect(gateway.message.length).toBeLessThan(300);

    answer = json(200, { transcript: "wrong field" });
    await expect(stt.transcribe(utterance, { language: "en" })).rejects.toThrow("The speech recognition endpoint's answer has no text");
  });

  it("gives up after its time limit, and at once when the caller does", async () => {
    answer = () => {}; // never answers
    const slow = new OpenAiSpeechToText({ baseUrl, apiKey: API_KEY, model: "whisper-1", timeoutMs: 200 });
    await expect(slow.transcribe(utterance, { language: "en" })).rejects.toThrow(
      "The speech recognition endpoint did not answer within 200 ms",
    );
    const controller = new AbortController();
    const pending = new OpenAiSpeechToText({ baseUrl, model: "whisper-1" }).transcribe(utterance, {
      language: "en",
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("visitor stopped")), 50);
    await expect(pending).rejects.toThrow("visitor stopped");
  });

  it("says when the endpoint cannot be reached", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const stt = new OpenAiSpeechToText({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, model: "whisper-1" });
    await expect(stt.transcribe(utterance, { language: "en" })).rejects.toThrow(
      /^The speech recognition endpoint could not be reached: .*ECONNREFUSED/,
    );
  });
});

describe("speech synthesis endpoint", () => {
  let tts: OpenAiTextToSpeech;
  beforeAll(() => {
    tts = new OpenAiTextToSpeech({ baseUrl, apiKey: API_KEY, model: "tts-1", voices: ["nova", "alloy"] });
  });
  const options = { voice: "alloy", language: "en" };

  it("posts the text, model and voice asking for a WAV, and brings the answer to 16 kHz", async () => {
    const spoken = sine(440, 24_000, 0.75);
    answer = (_, response) => {
      response.writeHead(200, { "content-type": "audio/wav" });
      response.end(encodeWav(spoken, 24_000));
    };
    expect(tts.voices).toEqual(["nova", "alloy"]);
    const audio = await tts.synthesize("  Your order ships today.  ", options);
    expect(audio.length).toBe(12_000);

    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/v1/audio/speech");
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body.toString("utf8"))).toEqual({
      model: "tts-1",
      input: "Your order ships today.",
      voice: "alloy",
      response_format: "wav",
    });
  });

  it("reads a streamed WAV (unknown sizes) sent as octet-stream", async () => {
    answer = (_, response) => {
      const wav = encodeWav(sine(440, 22_050, 0.5), 22_050);
      wav.writeUInt32LE(0xffffffff, 4);
      wav.writeUInt32LE(0xffffffff, 40);
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.end(wav);
    };
    expect((await tts.synthesize("Hello.", options)).length).toBe(Math.round((11_025 * 16_000) / 22_050));
  });

  it("reads raw 24 kHz PCM when the answer is not a WAV", async () => {
    const spoken = sine(500, 24_000, 0.3);
    answer = (_, response) => {
      response.writeHead(200, { "content-type": "audio/pcm" });
      response.end(pcmToBytes(spoken));
    };
    const audio = await tts.synthesize("Hello.", options);
    expect(audio.length).toBe(4_800);
    // Still a 500 Hz tone: 150 periods in 0.3 s, so 300 sign changes.
    let changes = 0;
    for (let i = 1; i < audio.length; i++) if (Math.sign(audio[i]!) !== Math.sign(audio[i - 1]!) && audio[i] !== 0) changes++;
    expect(changes).toBeGreaterThanOrEqual(298);
    expect(changes).toBeLessThanOrEqual(302);
  });

  it("asks for the default voice when the agent's is not offered, and sends nothing for no text", async () => {
    answer = (_, response) => {
      response.writeHead(200, { "content-type": "audio/wav" });
      response.end(encodeWav(new Int16Array(2_400), 24_000));
    };
    await tts.synthesize("Hi.", { voice: "kal16", language: "en" });
    expect(JSON.parse(requests[0]!.body.toString("utf8")).voice).toBe("nova");
    expect(await tts.synthesize("   ", options)).toEqual(new Int16Array(0));
    expect(requests).toHaveLength(1);
  });

  it("refuses an error body sent with 200 and names the status of a failure", async () => {
    answer = json(200, { error: "no audio" });
    await expect(tts.synthesize("Hi.", options)).rejects.toThrow(
      "The speech synthesis endpoint answered application/json instead of audio",
    );
    answer = json(500, { error: { message: "model overloaded" } });
    await expect(tts.synthesize("Hi.", options)).rejects.toThrow("The speech synthesis endpoint answered 500: model overloaded");
  });
});
