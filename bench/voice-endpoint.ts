// The voice step's stand-in for an OpenAI-compatible speech API (SPEECH_BASE_URL): fixed,
// stated costs, so the endpoint setup measures Parley's own overhead and nothing of a real
// service. POST /v1/audio/transcriptions reads the uploaded WAV, waits a fixed delay and answers
// a fixed transcript; POST /v1/audio/speech answers at once with a WAV of a fixed length per
// character of its input, cut from one buffer made at start.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

/** What the transcription takes, as a fast hosted recogniser of a short utterance might. */
export const FAKE_TRANSCRIPTION_DELAY_MS = 150;
/** What every utterance is heard as (the demo agent answers it from its password article). */
export const FAKE_TRANSCRIPT = "How do I reset my password?";
/** Audio per character of text: flite's kal16 makes about 62 ms, so both setups' replies play about as long. */
export const FAKE_SPEECH_MS_PER_CHAR = 60;
/** The rate of the answered WAV: OpenAI's own, so Parley resamples as with the real service. */
const SPEECH_RATE = 24_000;
/** Longest answer made (a knowledge reply is at most 600 characters; a sentence far less). */
const MAX_CHARS = 1_000;

const speechRequest = z.object({ input: z.string().min(1), voice: z.string(), model: z.string() });

export interface FakeSpeechEndpoint {
  /** The API base to set as SPEECH_BASE_URL. */
  baseUrl: string;
  requests: { transcriptions: number; speech: number };
  close(): Promise<void>;
}

/** A quiet 220 Hz tone (not silence, so nothing downstream can skip it), as PCM16LE bytes. */
function toneBytes(samples: number): Buffer {
  const bytes = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) bytes.writeInt16LE(Math.round(2_000 * Math.sin((2 * Math.PI * 220 * i) / SPEECH_RATE)), i * 2);
  return bytes;
}

function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SPEECH_RATE, 24);
  header.writeUInt32LE(SPEECH_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeSpeechEndpoint(): Promise<FakeSpeechEndpoint> {
  const samplesPerChar = (SPEECH_RATE * FAKE_SPEECH_MS_PER_CHAR) / 1000;
  const audio = toneBytes(MAX_CHARS * samplesPerChar);
  const requests = { transcriptions: 0, speech: 0 };
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const received = await body(request);
    if (request.method === "POST" && request.url === "/v1/audio/transcriptions") {
      requests.transcriptions++;
      await new Promise((resolve) => setTimeout(resolve, FAKE_TRANSCRIPTION_DELAY_MS));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: FAKE_TRANSCRIPT }));
      return;
    }
    if (request.method === "POST" && request.url === "/v1/audio/speech") {
      const parsed = speechRequest.safeParse(JSON.parse(received.toString("utf8") || "null"));
      if (!parsed.success) {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: parsed.error.message } }));
        return;
      }
      requests.speech++;
      const bytes = Math.min(parsed.data.input.length, MAX_CHARS) * samplesPerChar * 2;
      response.writeHead(200, { "content-type": "audio/wav" });
      response.end(Buffer.concat([wavHeader(bytes), audio.subarray(0, bytes)]));
      return;
    }
    response.writeHead(404).end();
  };
  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
