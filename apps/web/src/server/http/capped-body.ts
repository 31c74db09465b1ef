// A request body read whole, up to a limit: refused with 413 as soon as it passes it (by its
// declared length, or while it streams), never buffered beyond it.
import { AppError, type HeaderReader } from "@parley/core";

/** A fetch Request, or the routes' HttpRequest: a Content-Length header and a body of byte chunks. */
interface BodyCarrier {
  headers: HeaderReader;
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
}

export async function readCappedBody(request: BodyCarrier, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", { details: `At most ${maxBytes / 1024 / 1024} MB` });
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (request.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
