// A local fake OpenAI-compatible server for tests: POST /v1/chat/completions (non-streaming) answers
// from a scripted queue of responses and records every request it receives. Listens on a random
// port; `close()` drops open connections (a "slow" response included).
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
  | { kind: "text"; text: string; usage: FakeUsage }
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

export async function startFakeOpenAi(options: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 0;

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
    requests.push({ method: request.method ?? "", path, headers: request.headers, body });

    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      sendJson(response, 404, { error: { message: `fake: no route ${request.method} ${path}`, type: "not_found" } });
      return;
    }
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(response, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
      return;
    }
    if ((body as { stream?: boolean } | undefined)?.stream) {
      sendJson(response, 400, { error: { message: "fake: streaming is not implemented", type: "invalid_request_error" } });
      return;
    }
    const scripted = queue.shift();
    if (!scripted) {
      sendJson(response, 500, { error: { message: "fake: no scripted response left", type: "fake_server_error" } });
      return;
    }
    respond(response, scripted, (body as { model?: string } | undefined)?.model ?? "fake-model");
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

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    pending: () => queue.length,
    close: async () => {
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
