// Writing a core result as an HTTP response, on Node's response or as a fetch Response: the
// result's status, headers and body, plus what the transport owns (X-Request-Id).
import type { ServerResponse } from "node:http";
import type { HttpResult } from "@parley/core";
import { requestId } from "./request.ts";

const JSON_TYPE = "application/json; charset=utf-8";

function bodyOf(result: HttpResult): { text: string | Uint8Array<ArrayBuffer> | null; type: string | null } {
  if (result.json !== undefined) return { text: JSON.stringify(result.json), type: JSON_TYPE };
  if (result.text !== undefined) return { text: result.text, type: null };
  if (result.bytes !== undefined) return { text: result.bytes as Uint8Array<ArrayBuffer>, type: null };
  return { text: null, type: null };
}

/** The result as a fetch Response (Next's route files). */
export function toResponse(result: HttpResult, requestId: string): Response {
  const { text, type } = bodyOf(result);
  const headers = new Headers(result.headers);
  if (type) headers.set("content-type", type);
  headers.set("x-request-id", requestId);
  return new Response(result.stream ? streamBody(result.stream) : text, { status: result.status, headers });
}

/** A streamed body as a web stream: each piece is sent as it comes. */
function streamBody(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/**
 * Writes the result on Node's response (the server entry's direct path), beside the headers
 * already set on it (the security headers); a streamed body piece by piece until it ends or the
 * client leaves.
 */
export async function writeResult(res: ServerResponse, result: HttpResult, requestId: string): Promise<void> {
  if (result.stream) {
    res.writeHead(result.status, { ...result.headers, "x-request-id": requestId });
    res.flushHeaders();
    for await (const piece of result.stream) {
      if (res.destroyed) break;
      res.write(piece);
    }
    res.end();
    return;
  }
  const { text, type } = bodyOf(result);
  const body =
    text === null ? null : typeof text === "string" ? Buffer.from(text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  res.writeHead(result.status, {
    ...(type ? { "content-type": type } : {}),
    ...result.headers,
    "x-request-id": requestId,
    ...(body ? { "content-length": String(body.length) } : {}),
  });
  res.end(body ?? undefined);
}

/** The result as the Response to a fetch Request, with its X-Request-Id (routes outside the table). */
export function respond(request: Request, result: HttpResult): Response {
  return toResponse(result, requestId(request));
}
