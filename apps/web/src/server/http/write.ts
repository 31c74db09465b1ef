// Writing a core result as an HTTP response, on Node's response or as a fetch Response: the
// result's status, headers and body, plus what the transport owns (X-Request-Id).
import type { ServerResponse } from "node:http";
import type { HttpResult } from "@parley/core";
import { requestId } from "./request.ts";

const JSON_TYPE = "application/json; charset=utf-8";

function bodyOf(result: HttpResult): { text: string | null; type: string | null } {
  if (result.json !== undefined) return { text: JSON.stringify(result.json), type: JSON_TYPE };
  if (result.text !== undefined) return { text: result.text, type: null };
  return { text: null, type: null };
}

/** The result as a fetch Response (Next's route files). */
export function toResponse(result: HttpResult, requestId: string): Response {
  const { text, type } = bodyOf(result);
  const headers = new Headers(result.headers);
  if (type) headers.set("content-type", type);
  headers.set("x-request-id", requestId);
  return new Response(text, { status: result.status, headers });
}

/** Writes the result on Node's response (the server entry's direct path), with `extraHeaders`. */
export function writeResult(res: ServerResponse, result: HttpResult, requestId: string, extraHeaders: Record<string, string> = {}): void {
  const { text, type } = bodyOf(result);
  const body = text === null ? null : Buffer.from(text);
  res.writeHead(result.status, {
    ...extraHeaders,
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
