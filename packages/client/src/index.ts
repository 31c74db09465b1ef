// @parley/client: a typed client for the Parley HTTP API (version 1), with no runtime dependency
// (it needs only `fetch` and `crypto.randomUUID`: Node 20+ or any modern runtime). It follows the spec's client guidance
// (section 7):
//   - 400, 401, 403, 404 and 409 are never retried: they throw at once;
//   - 429 waits Retry-After, or backs off 1 s, 2 s, 4 s, then throws RateLimitError;
//   - 402 throws QuotaExceededError at once: alert the operator, no retry helps;
//   - 5xx, network errors and timeouts are retried on the same schedule;
//   - every send carries an Idempotency-Key, the same on each of its retries, so a retry never
//     makes a second turn (the server replays the stored reply).
//
//   const parley = new Parley({ apiKey: process.env.PARLEY_API_KEY, agentId: "demo", baseUrl: "https://parley.example.com" });
//   const first = await parley.messages.send({ message: "How do I get a refund?" });
//   const next = await parley.messages.send({ message: "Thanks!", conversationId: first.conversationId });
//
// The reply can also stream as the agent writes it (LLM agents), with the same retries before the
// first event and none after it:
//   for await (const event of parley.messages.stream({ message: "How do I get a refund?" })) {
//     if (event.type === "delta") process.stdout.write(event.delta);
//     else console.log(event.message.conversationId);
//   }
//   const reply = await parley.messages.send({ message: "..." }, { onDelta: (delta) => process.stdout.write(delta) });
import { ConnectionError, errorFromResponse, ParleyError, RateLimitError, retryAfterMs, TimeoutError } from "./errors.ts";
import { errorFromEvent, readEvents } from "./stream.ts";
import type {
  HelpArticle,
  HelpArticleQuery,
  HelpArticles,
  HelpCollections,
  MessageResponse,
  MessageStreamEvent,
  SendMessageParams,
} from "./types.ts";

export * from "./errors.ts";
export type * from "./types.ts";

/** The API version this client speaks (the OpenAPI document's `info.version`). */
export const API_VERSION = "1.0.0";

/** Waits before the 1st, 2nd and 3rd retry when the server names none. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000] as const;

export interface ParleyOptions {
  /** The agent's HTTP API key (`pk_...`). Needed for messages; the help centre is public. Server side only. */
  apiKey?: string;
  agentId: string;
  /** The deployment's address, e.g. `https://parley.example.com`. */
  baseUrl: string;
  /** Per attempt, in milliseconds (default 60 s: longer than the server's own 30 s engine timeout). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). 0 turns retrying off. */
  maxRetries?: number;
  /** A longer Retry-After than this (default 60 s) throws RateLimitError at once instead of waiting. */
  maxRetryAfterMs?: number;
  /** A `fetch` implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
  /** The key must never reach a browser; set this only for a trusted local tool. */
  dangerouslyAllowBrowser?: boolean;
}

export interface RequestOptions {
  /** Cancels the call, including any wait between retries; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (per attempt). */
  timeoutMs?: number;
}

export interface StreamOptions extends RequestOptions {
  /** Your own Idempotency-Key (1 to 255 characters); by default a random UUID per send. */
  idempotencyKey?: string;
}

export interface SendOptions extends StreamOptions {
  /**
   * Streams the reply (`Accept: text/event-stream`) and calls this with each piece as it arrives
   * (`text`: the reply so far); the promise still resolves to the whole reply.
   */
  onDelta?: (delta: string, text: string) => void;
}

export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  /** How long the client waits before it. */
  delayMs: number;
  /** What failed. */
  error: ParleyError;
  method: string;
  path: string;
  /** The send's Idempotency-Key, the same on every attempt. */
  idempotencyKey?: string;
}

interface Call {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  authenticated: boolean;
  idempotencyKey?: string;
  options: RequestOptions;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export class Parley {
  readonly messages: {
    /** Sends one message; omit `conversationId` to start a conversation. */
    send(params: SendMessageParams, options?: SendOptions): Promise<MessageResponse>;
    /**
     * Sends one message and yields the reply as it streams: `delta` events, then one `message`
     * event (the body `send` resolves to). Errors throw as with `send`; a failure before the first
     * event is retried like `send`, one after it throws (nothing was stored: send again).
     */
    stream(params: SendMessageParams, options?: StreamOptions): AsyncGenerator<MessageStreamEvent, void, undefined>;
  };

  readonly help: {
    /** The collections that hold published articles. */
    collections(options?: RequestOptions): Promise<HelpCollections>;
    /** At most 50 published articles, most recent first; optionally of one collection, matching `q`. */
    articles(query?: HelpArticleQuery, options?: RequestOptions): Promise<HelpArticles>;
    /** One published article (NotFoundError otherwise). */
    article(id: string, options?: RequestOptions): Promise<HelpArticle>;
  };

  readonly #apiKey: string | undefined;
  readonly #agentPath: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryAfterMs: number;
  readonly #fetch: typeof fetch;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: ParleyOptions) {
    if (!options.agentId) throw new TypeError("Parley: agentId is required");
    if (!/^https?:\/\//.test(options.baseUrl ?? "")) throw new TypeError("Parley: baseUrl must be an http(s) URL");
    if (options.apiKey && !options.dangerouslyAllowBrowser && isBrowser()) {
      throw new Error("Parley: the API key is for servers only; in a browser use the widget or the JS SDK");
    }
    this.#apiKey = options.apiKey;
    this.#agentPath = `/api/agent/${encodeURIComponent(options.agentId)}`;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxRetries = options.maxRetries ?? RETRY_DELAYS_MS.length;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#onRetry = options.onRetry;

    const sendCall = (params: SendMessageParams, sendOptions: StreamOptions): Call => {
      const { idempotencyKey = globalThis.crypto.randomUUID(), ...rest } = sendOptions;
      const body: SendMessageParams = { message: params.message };
      if (params.conversationId !== undefined) body.conversationId = params.conversationId;
      if (params.visitor !== undefined) body.visitor = params.visitor;
      if (params.clientVariables !== undefined) body.clientVariables = params.clientVariables;
      return { method: "POST", path: `${this.#agentPath}/messages`, body, authenticated: true, idempotencyKey, options: rest };
    };
    this.messages = {
      send: async (params, sendOptions = {}) => {
        const { onDelta, ...rest } = sendOptions;
        if (!onDelta) return this.#call<MessageResponse>(sendCall(params, rest));
        for await (const event of this.#stream(sendCall(params, rest))) {
          if (event.type === "message") return event.message;
          onDelta(event.delta, event.text);
        }
        throw new ConnectionError({ status: 0, error: "Connection failed: the stream ended before the reply" });
      },
      stream: (params, streamOptions = {}) => this.#stream(sendCall(params, streamOptions)),
    };

    this.help = {
      collections: async (requestOptions = {}) =>
        (
          await this.#call<{ data: HelpCollections }>({
            method: "GET",
            path: `${this.#agentPath}/help`,
            authenticated: false,
            options: requestOptions,
          })
        ).data,
      articles: async (query = {}, requestOptions = {}) =>
        (
          await this.#call<{ data: HelpArticles }>({
            method: "GET",
            path: `${this.#agentPath}/help/articles`,
            query: { source: query.source, q: query.q, sort: query.sort },
            authenticated: false,
            options: requestOptions,
          })
        ).data,
      article: async (id, requestOptions = {}) =>
        (
          await this.#call<{ data: HelpArticle }>({
            method: "GET",
            path: `${this.#agentPath}/help/articles/${encodeURIComponent(id)}`,
            authenticated: false,
            options: requestOptions,
          })
        ).data,
    };
  }

  async #call<T>(call: Call): Promise<T> {
    const { signal } = call.options;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let error: ParleyError;
      try {
        const result = await this.#attempt(call);
        if (result.status >= 200 && result.status < 300) return (result.text === "" ? undefined : JSON.parse(result.text)) as T;
        error = errorFromResponse(result.status, result.headers, result.text);
      } catch (thrown) {
        if (!(thrown instanceof ConnectionError)) throw thrown;
        error = thrown;
      }
      const delayMs = this.#retryDelay(error, attempt);
      if (delayMs === undefined) throw error;
      this.#onRetry?.({ retry: attempt + 1, delayMs, error, method: call.method, path: call.path, idempotencyKey: call.idempotencyKey });
      await sleep(delayMs, signal);
    }
  }

  /** The streaming form's events, retried like #call until the first event arrives. */
  async *#stream(call: Call): AsyncGenerator<MessageStreamEvent, void, undefined> {
    const { signal } = call.options;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let started = false;
      try {
        for await (const event of this.#streamAttempt(call)) {
          started = true;
          yield event;
        }
        return;
      } catch (thrown) {
        if (started || !(thrown instanceof ParleyError)) throw thrown;
        const delayMs = this.#retryDelay(thrown, attempt);
        if (delayMs === undefined) throw thrown;
        this.#onRetry?.({
          retry: attempt + 1,
          delayMs,
          error: thrown,
          method: call.method,
          path: call.path,
          idempotencyKey: call.idempotencyKey,
        });
        await sleep(delayMs, signal);
      }
    }
  }

  /** One streamed exchange: an error status throws as in #call; a 200 yields its events. */
  async *#streamAttempt(call: Call): AsyncGenerator<MessageStreamEvent, void, undefined> {
    const { url, init } = this.#request(call, "text/event-stream");
    const guard = this.#guard(call);
    try {
      let response: Response;
      try {
        response = await this.#fetch(url, { ...init, signal: guard.signal });
      } catch (error) {
        throw guard.failure(error);
      }
      if (!response.body || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        // An error, or a server without the streaming form: its JSON body.
        const text = await response.text().catch((error: unknown) => Promise.reject(guard.failure(error)));
        if (response.status < 200 || response.status >= 300) throw errorFromResponse(response.status, response.headers, text);
        yield { type: "message", message: JSON.parse(text) as MessageResponse };
        return;
      }
      const requestId = response.headers.get("x-request-id") ?? undefined;
      let reply = "";
      try {
        for await (const event of readEvents(response.body)) {
          if (event.event === "message.delta") {
            const { delta } = JSON.parse(event.data) as { delta: string };
            reply += delta;
            yield { type: "delta", delta, text: reply };
          } else if (event.event === "message") {
            yield { type: "message", message: JSON.parse(event.data) as MessageResponse };
            return;
          } else if (event.event === "error") throw errorFromEvent(event.data, requestId);
        }
      } catch (error) {
        throw error instanceof ParleyError ? error : guard.failure(error);
      }
      throw new ConnectionError({ status: 0, error: "Connection failed: the stream ended before the reply" });
    } finally {
      guard.finish();
    }
  }

  /** How long to wait before retrying after `error`, or undefined to throw it. */
  #retryDelay(error: ParleyError, attempt: number): number | undefined {
    const retryable = error.status === 429 || error.status === 0 || error.status >= 500;
    if (!retryable || attempt >= this.#maxRetries) return undefined;
    const backoff = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
    const asked = retryAfterMs(error.headers, Date.now());
    if (asked === undefined) return backoff;
    if (error instanceof RateLimitError && asked > this.#maxRetryAfterMs) return undefined;
    return Math.min(asked, this.#maxRetryAfterMs);
  }

  /** One HTTP exchange, body read included, within the timeout. */
  async #attempt(call: Call): Promise<{ status: number; headers: Headers; text: string }> {
    const { url, init } = this.#request(call, "application/json");
    const guard = this.#guard(call);
    try {
      const response = await this.#fetch(url, { ...init, signal: guard.signal });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      throw guard.failure(error);
    } finally {
      guard.finish();
    }
  }

  /** The URL and fetch options of a call. */
  #request(call: Call, accept: string): { url: URL; init: RequestInit } {
    const url = new URL(this.#baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {}))
      if (value !== undefined && value !== "") url.searchParams.set(name, value);

    const headers: Record<string, string> = { accept };
    if (call.authenticated) {
      if (!this.#apiKey) throw new TypeError("Parley: apiKey is required to send messages");
      headers.authorization = `Bearer ${this.#apiKey}`;
    }
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
    return { url, init: { method: call.method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) } };
  }

  /**
   * The attempt's timeout and the caller's signal as one signal; `failure` names what ended the
   * attempt (the caller's reason, a TimeoutError, else a ConnectionError); `finish` when done.
   */
  #guard(call: Call): { signal: AbortSignal; failure(error: unknown): unknown; finish(): void } {
    const { signal } = call.options;
    const timeoutMs = call.options.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", cancel, { once: true });
    return {
      signal: controller.signal,
      failure(error) {
        if (signal?.aborted) return signal.reason;
        if (timedOut) return new TimeoutError({ status: 0, error: `No response within ${timeoutMs} ms`, cause: error });
        return new ConnectionError({ status: 0, error: `Connection failed: ${describeFailure(error)}`, cause: error });
      },
      finish() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", cancel);
      },
    };
  }
}

/** fetch's own message is vague ("fetch failed"); its cause names the socket error. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}

function isBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return typeof scope.window !== "undefined" && typeof scope.document !== "undefined";
}

/** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
