// The streaming form of the send-message call (`Accept: text/event-stream`): reading the
// server-sent events of a response body as they arrive, and the error an `error` event stands for.
import { InternalServerError, NotFoundError, type ParleyError, QuotaExceededError } from "./errors.ts";

export interface ServerSentEvent {
  event: string;
  data: string;
}

/** The events of a text/event-stream body, each as soon as its blank line arrives. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) yield event;
      end = buffer.indexOf("\n\n");
    }
  }
}

function parseEvent(block: string): ServerSentEvent | undefined {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length > 0 ? { event, data: data.join("\n") } : undefined;
}

// An error event ends a stream that had already begun with 200, so it names no status: these are
// the errors a turn can still meet then (the server's texts), with the status the JSON form gives.
const STATUS_OF_STREAM_ERROR: Record<string, { status: number; ErrorClass: typeof ParleyError }> = {
  "Monthly conversation quota exhausted": { status: 402, ErrorClass: QuotaExceededError },
  "Monthly token quota exhausted": { status: 402, ErrorClass: QuotaExceededError },
  "Usage limit reached": { status: 402, ErrorClass: QuotaExceededError },
  "Conversation not found": { status: 404, ErrorClass: NotFoundError },
};

/** The error for the data of an `error` event: the spec's error body. */
export function errorFromEvent(data: string, requestId: string | undefined): ParleyError {
  let error = "Internal error";
  let details: string | undefined;
  try {
    const body = JSON.parse(data) as { error?: unknown; details?: unknown };
    if (typeof body.error === "string") error = body.error;
    if (typeof body.details === "string") details = body.details;
  } catch {
    // not the spec's body: an internal error
  }
  const { status, ErrorClass } = STATUS_OF_STREAM_ERROR[error] ?? { status: 500, ErrorClass: InternalServerError };
  return new ErrorClass({ status, error, details, requestId });
}
