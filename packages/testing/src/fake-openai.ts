// A local fake OpenAI-compatible server for tests: POST /v1/chat/completions answers from a scripted
// queue of responses and records every request it receives. With `"stream": true` in the request
// (what the LLM engine sends) it answers as OpenAI does, in server-sent events: chat.completion.chunk
// objects (the text in pieces, tool calls, the finish reason), a last chunk with the usage, then
// `data: [DONE]`. A text response can pause after some pieces until `release()` (or
// `POST /fake/release`), so a test can look at a partial answer; a "broken" one drops the
// connection mid-stream. Listens on a random port unless given one; `close()` drops open
// connections (a "slow" or paused response included). Other processes (the e2e journeys) script it
// over HTTP: `POST /fake/enqueue` with a JSON array of responses, `GET /fake/requests` (what it
// was asked), `GET /fake/health`.
//
//   const fake = await startFakeOpenAi({ apiKey: "sk-test" });
//   fake.enqueue(toolCallResponse("search_knowledge_base", { query: "reset password" }), textResponse("..."));
//   createLlmEngine(deps, { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 5000 });
//   fake.requests[1].body.messages // what the SDK sent on the second step
//   await fake.close();
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type FakeResponse =
  /** Streamed as `pieces` (default: word by word), pausing after `pauseAfter` of them until released. */
  | { kind: "text"; text: string; usage: FakeUsage; pieces?: string[]; pauseAfter?: number }
  /** Streams `pieces`, then drops the connection (a provider failing mid-answer). */
  | { kind: "broken"; pieces: string[] }
  | { kind: "tool_calls"; calls: Array<{ name: string; args: Record<string, unknown> }>; usage: FakeUsage }
  | { kind: "error"; status: number; message: string }
  /** Waits `delayMs` before answering with `then` (or never answers if the client goes away first). */
  | { kind: "slow"; delayMs: number; then: FakeResponse };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: the request body is whatever JSON the SDK sent.
  body: any;
}

export interface FakeOpenAi {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Responses served in order, one per chat-completions request. */
  enqueue(...responses: FakeResponse[]): void;
  /** How many scripted responses are still unused. */
  pending(): number;
  /** Lets paused streams go on. */
  release(): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

export function usage(prompt: number, completion: number): FakeUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function textResponse(text: string, tokens: FakeUsage = DEFAULT_USAGE): FakeResponse {
  return { kind: "text", text, usage: tokens };
}

export function toolCallResponse(name: string, args: Record<string, unknown>, tokens: FakeUsage = DEFAULT_USAGE): FakeResponse {
  return { kind: "tool_calls", calls: [{ name, args }], usage: tokens };
}

/** A text answer streamed in `pieces`, pausing after the first `pauseAfter` until `release()`. */
export function streamedText(pieces: string[], options: { pauseAfter?: number; usage?: FakeUsage } = {}): FakeResponse {
  return { kind: "text", text: pieces.join(""), pieces, usage: options.usage ?? DEFAULT_USAGE, pauseAfter: options.pauseAfter };
}

export function brokenStream(pieces: string[]): FakeResponse {
  return { kind: "broken", pieces };
}

export function errorResponse(status = 500, message = "The fake model is down"): FakeResponse {
  return { kind: "error", status, message };
}

export function slowResponse(delayMs: number, then: FakeResponse = textResponse("Too late.")): FakeResponse {
  return { kind: "slow", delayMs, then };
}

/** Ready-made scripts for the usual scenarios. */
export const scripts = {
  /** Search the knowledge base for `query`, then answer with `answer`. */
  searchThenAnswer: (query: string, answer: string): FakeResponse[] => [
    toolCallResponse("search_knowledge_base", { query }, usage(120, 18)),
    textResponse(answer, usage(410, 42)),
  ],
  /** Ask for a person, then tell the visitor one is coming. */
  handoff: (reason = "visitor asked for a person"): FakeResponse[] => [
    toolCallResponse("request_human", { reason }, usage(90, 12)),
    textResponse("I've asked a colleague to join; they will reply here shortly.", usage(130, 16)),
  ],
  error: (): FakeResponse[] => [errorResponse()],
  slow: (delayMs = 5_000): FakeResponse[] => [slowResponse(delayMs)],
};

export async function startFakeOpenAi(options: { apiKey?: string; port?: number } = {}): Promise<FakeOpenAi> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 0;
  // Paused streams wait for `released`; release() lets them go and sets up the next pause.
  let releaseNow: () => void = () => {};
  const nextGate = () =>
    new Promise<void>((resolve) => {
      releaseNow = resolve;
    });
  let released = nextGate();
  const release = () => {
    releaseNow();
    released = nextGate();
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      sendJson(response, 500, { error: { message: String(error), type: "fake_server_error" } });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const path = request.url ?? "/";
    if (path.startsWith("/fake/")) {
      control(request.method ?? "", path, body, response);
      return;
    }
    requests.push({ method: request.method ?? "", path, headers: request.headers, body });

    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      sendJson(response, 404, { error: { message: `fake: no route ${request.method} ${path}`, type: "not_found" } });
      return;
    }
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(response, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
      return;
    }
    const scripted = queue.shift();
    if (!scripted) {
      sendJson(response, 500, { error: { message: "fake: no scripted response left", type: "fake_server_error" } });
      return;
    }
    const model = (body as { model?: string } | undefined)?.model ?? "fake-model";
    if ((body as { stream?: boolean } | undefined)?.stream) await stream(response, scripted, model);
    else respond(response, scripted, model);
  }

  function control(method: string, path: string, body: unknown, response: ServerResponse): void {
    if (method === "GET" && path === "/fake/health") sendJson(response, 200, { pending: queue.length });
    else if (method === "GET" && path === "/fake/requests") sendJson(response, 200, requests);
    else if (method === "POST" && path === "/fake/enqueue" && Array.isArray(body)) {
      queue.push(...(body as FakeResponse[]));
      sendJson(response, 200, { pending: queue.length });
    } else if (method === "POST" && path === "/fake/release") {
      release();
      sendJson(response, 200, {});
    } else sendJson(response, 404, { error: { message: `fake: no route ${method} ${path}`, type: "not_found" } });
  }

  /** The scripted response as OpenAI streams it. */
  async function stream(response: ServerResponse, scripted: FakeResponse, model: string): Promise<void> {
    if (scripted.kind === "error") return respond(response, scripted, model);
    if (scripted.kind === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, scripted.delayMs);
        timers.add(timer);
        response.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (!response.destroyed) await stream(response, scripted.then, model);
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `chatcmpl-fake-${++sequence}`;
    const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) =>
      response.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra })}\n\n`,
      );
    if (scripted.kind === "tool_calls") {
      chunk({
        delta: {
          role: "assistant",
          content: null,
          tool_calls: scripted.calls.map((call, index) => ({
            index,
            id: `call_${++sequence}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        },
        finish_reason: null,
      });
      chunk({ delta: {}, finish_reason: "tool_calls" });
      chunk(null, { usage: scripted.usage });
      response.end("data: [DONE]\n\n");
      return;
    }
    const pieces = scripted.kind === "broken" ? scripted.pieces : (scripted.pieces ?? scripted.text.split(/(?<= )/));
    for (const [index, piece] of pieces.entries()) {
      if (scripted.kind === "text" && index === scripted.pauseAfter) await Promise.race([released, once(response, "close")]);
      if (response.destroyed) return;
      chunk({ delta: index === 0 ? { role: "assistant", content: piece } : { content: piece }, finish_reason: null });
    }
    if (scripted.kind === "broken") {
      // Let the pieces reach the client before the connection drops.
      await new Promise((resolve) => setTimeout(resolve, 50));
      response.destroy();
      return;
    }
    chunk({ delta: {}, finish_reason: "stop" });
    chunk(null, { usage: scripted.usage });
    response.end("data: [DONE]\n\n");
  }

  function respond(response: ServerResponse, scripted: FakeResponse, model: string): void {
    switch (scripted.kind) {
      case "slow": {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) respond(response, scripted.then, model);
        }, scripted.delayMs);
        timers.add(timer);
        response.on("close", () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case "error":
        sendJson(response, scripted.status, { error: { message: scripted.message, type: "server_error" } });
        return;
      case "text":
        sendJson(response, 200, completion(model, { role: "assistant", content: scripted.text }, "stop", scripted.usage));
        return;
      case "broken":
        response.destroy();
        return;
      case "tool_calls":
        sendJson(
          response,
          200,
          completion(
            model,
            {
              role: "assistant",
              content: null,
              tool_calls: scripted.calls.map((call) => ({
                id: `call_${++sequence}`,
                type: "function",
                function: { name: call.name, arguments: JSON.stringify(call.args) },
              })),
            },
            "tool_calls",
            scripted.usage,
          ),
        );
        return;
    }
  }

  function completion(model: string, message: Record<string, unknown>, finishReason: string, tokens: FakeUsage) {
    return {
      id: `chatcmpl-fake-${++sequence}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage: tokens,
    };
  }

  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    pending: () => queue.length,
    release,
    close: async () => {
      release();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
