// Request body caps for every route, before Next.js or a route reads a byte: the limit of the
// path comes from core (bodyLimitForPath). A Content-Length over it is refused at once; any other
// body is held here, counted as it arrives, and handed on only once complete and within the limit.
// One growing past it is refused while streaming and no more of it is read (the connection closes).
// The server entry creates its server with BodyLimitedRequest (body-limited-request.mjs) as the
// request class and calls limitRequestBody first; without that, a body is only ever read by whoever
// handles the request.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ERRORS, errorDocsLink } from "@parley/core";
import { bodyLimitForPath } from "@parley/core/limits";
import { closeAfterAnswer } from "./body-limited-request.mjs";

/**
 * Calls `serve` once the request may be handled: at once when it has no body, after its whole body
 * has arrived within the path's limit otherwise. A body over the limit gets 413 and `serve` is
 * never called.
 */
export function limitRequestBody(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
  // Duck-typed: server.mjs and this bundle load the class as two module instances.
  if (!canHoldBody(req)) throw new Error("The server must create its requests as BodyLimitedRequest");
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  const limit = bodyLimitForPath(end === -1 ? url : url.slice(0, end));
  const declared = req.headers["content-length"];
  const hasBody = req.headers["transfer-encoding"] !== undefined || (declared !== undefined && Number(declared) > 0);
  if (limit !== null && declared !== undefined && Number(declared) > limit) refuse(req, res, limit);
  else if (limit !== null && hasBody) req.holdBody(limit, serve, () => refuse(req, res, limit));
  else {
    req.streamBody();
    serve();
  }
}

interface HoldingRequest extends IncomingMessage {
  holdBody(limit: number, complete: () => void, tooLarge: () => void): void;
  streamBody(): void;
}

function canHoldBody(req: IncomingMessage): req is HoldingRequest {
  return typeof (req as Partial<HoldingRequest>).holdBody === "function";
}

/** 413 with the error body, then the connection closes: the rest of the body is never read. */
function refuse(req: IncomingMessage, res: ServerResponse, limit: number): void {
  closeAfterAnswer(req.socket);
  const body = JSON.stringify({ error: ERRORS.PAYLOAD_TOO_LARGE.message, details: `body: must be at most ${limit} bytes` });
  res.writeHead(ERRORS.PAYLOAD_TOO_LARGE.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-request-id": randomUUID(),
    link: errorDocsLink("PAYLOAD_TOO_LARGE"),
    connection: "close",
  });
  res.end(body);
}
