// A deterministic OpenAI-compatible embeddings server for tests: POST /v1/embeddings answers each
// input with a hashed bag of words (every word, lower-cased and cut to its first 5 letters, adds
// ±1 to one of DIMENSIONS coordinates chosen by a hash of the word and the model), so texts sharing
// words are near and the same text always gives the same vector. It records every request, and
// can be told to fail or to answer late. A request's `dimensions` keeps that many coordinates. Listens on a random port of 127.0.0.1.
//
//   const fake = await startFakeEmbeddings({ apiKey: "sk-test" });
//   createEmbedder({ baseUrl: fake.baseUrl, apiKey: "sk-test", model: "bow-1" });
//   fake.inputs() // every text embedded so far
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const DIMENSIONS = 64;

export interface FakeEmbeddings {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: Array<{ model: string; input: string[]; dimensions?: number; authorization: string | undefined }>;
  /** Every input text received, in order. */
  inputs(): string[];
  /** What the next requests get: vectors (default), an error status, or vectors after a delay. */
  mode: { kind: "ok" } | { kind: "error"; status: number } | { kind: "slow"; delayMs: number };
  close(): Promise<void>;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 2)
    .map((word) => word.slice(0, 5));
}

/** The fake model's vector of `text` (not normalised: the client scales it to unit length). */
export function bagOfWords(text: string, model: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of wordsOf(text)) {
    const digest = createHash("sha256").update(`${model}:${word}`).digest();
    vector[digest[0]! % DIMENSIONS]! += digest[1]! % 2 === 0 ? 1 : -1;
  }
  return vector;
}

async function readJson(req: IncomingMessage): Promise<{ model: string; input: string | string[]; dimensions?: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startFakeEmbeddings(options: { apiKey?: string } = {}): Promise<FakeEmbeddings> {
  const fake: FakeEmbeddings = {
    baseUrl: "",
    requests: [],
    inputs: () => fake.requests.flatMap((request) => request.input),
    mode: { kind: "ok" },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/embeddings") return send(404, { error: { message: "Not found" } });
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return send(401, { error: { message: "Bad key" } });
    const body = await readJson(req);
    const input = Array.isArray(body.input) ? body.input : [body.input];
    fake.requests.push({ model: body.model, input, dimensions: body.dimensions, authorization: req.headers.authorization });
    const mode = fake.mode;
    if (mode.kind === "error") return send(mode.status, { error: { message: "The fake endpoint is failing" } });
    if (mode.kind === "slow") await new Promise((resolve) => setTimeout(resolve, mode.delayMs));
    if (res.destroyed) return;
    send(200, {
      object: "list",
      model: body.model,
      data: input.map((text, index) => ({ object: "embedding", index, embedding: bagOfWords(text, body.model).slice(0, body.dimensions) })),
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
