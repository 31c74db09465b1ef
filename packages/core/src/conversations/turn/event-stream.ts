// The opt-in streaming form of POST /api/agent/{agentId}/messages: with `Accept: text/event-stream`
// the answer is a stream of server-sent events instead of one JSON body. Everything else is the
// JSON form's: the same checks in the same order, the same turn (runTurn: idempotency, quotas,
// usage, the stored messages), the same final body.
//
//   event: message.delta   data: {"delta":"..."}              pieces of the reply as the engine writes it
//   event: message         data: <the JSON form's 200 body>    once, last, on success
//   event: error           data: {"error":"...","details"?}    once, last, when the turn fails
//
// The status is decided as late as it can be: until the engine has written its first piece, a
// failure is answered as in the JSON form (its status, headers and error body). Once the stream
// has begun (200), a failure ends it with an `error` event carrying the spec's error body.
import { AppError, isAppError } from "../../platform/errors.ts";
import { describeError, logger } from "../../platform/logger.ts";
import { errorResult, type HttpResult } from "../../platform/results.ts";

/** What the turn settles to: the JSON form's status and body (200 with the response, or a replay). */
export interface SettledTurn {
  body: unknown;
  headers: Record<string, string>;
}

const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // Each event must reach the caller at once: no caching, no buffering in proxies (nginx honours it).
  "cache-control": "no-store",
  "x-accel-buffering": "no",
} as const;

/**
 * Whether the caller asked for the streaming form: its Accept header names `text/event-stream`
 * (parameters and q-values aside, except q=0, which refuses it). Anything else gets JSON.
 */
export function acceptsEventStream(accept: string | null): boolean {
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    if (type !== "text/event-stream") return false;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    return q === undefined || Number.parseFloat(q.slice(2)) > 0;
  });
}

export function serverSentEvent(event: "message.delta" | "message" | "error", data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A stored response replayed in the streaming form: its one final event. */
export function eventStreamReplay(body: unknown, headers: Record<string, string>): HttpResult {
  return { status: 200, headers: { ...headers, ...EVENT_STREAM_HEADERS }, stream: once(serverSentEvent("message", body)) };
}

/**
 * Runs the turn (`run`, given the delta callback) and answers in the streaming form. `headers`
 * are those every outcome carries (RateLimit); an error before the first delta keeps them too.
 */
export async function streamTurn(
  run: (onDelta: (text: string) => void) => Promise<SettledTurn>,
  headers: Record<string, string>,
): Promise<HttpResult> {
  const events = new EventQueue();
  let firstDelta: () => void = () => {};
  const started = new Promise<"started">((resolve) => {
    firstDelta = () => resolve("started");
  });
  const turn = run((text) => {
    events.push(serverSentEvent("message.delta", { delta: text }));
    firstDelta();
  });
  const first = await Promise.race([
    started,
    turn.then(
      () => "settled" as const,
      () => "failed" as const,
    ),
  ]);
  if (first === "failed") {
    return errorResult(
      await turn.then(
        () => new AppError("INTERNAL"),
        (error: unknown) => asAppError(error),
      ),
      headers,
    );
  }
  let finalHeaders = headers;
  if (first === "settled") finalHeaders = { ...headers, ...(await turn).headers };
  void turn
    .then(
      (settled) => events.push(serverSentEvent("message", settled.body)),
      (error: unknown) => events.push(serverSentEvent("error", asAppError(error).toBody())),
    )
    .finally(() => events.end());
  return { status: 200, headers: { ...finalHeaders, ...EVENT_STREAM_HEADERS }, stream: events };
}

/** An AppError as it stands; anything else is logged (never a stack) and becomes `Internal error`. */
export function asAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  logger.error("message turn failed", { error: describeError(error) });
  return new AppError("INTERNAL");
}

async function* once(event: string): AsyncIterable<string> {
  yield event;
}

/** Server-sent events as they are produced, read once by the transport. */
class EventQueue implements AsyncIterable<string> {
  private readonly items: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(item: string): void {
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
