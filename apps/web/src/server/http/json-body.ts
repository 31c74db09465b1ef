// Reading the send-message body: JSON only, at most MESSAGE_BODY_MAX_BYTES bytes. The size is
// enforced before parsing (from Content-Length when sent, and while reading in any case), so an
// oversized body is never buffered whole; the rest of it is left unread (the server then drops it
// after the answer).
import { pathOfUnstorableText, UNSTORABLE_TEXT_RULE } from "@parley/core";
import { invalidRequest } from "@parley/core/conversations";
import { MESSAGE_BODY_MAX_BYTES } from "@parley/core/conversations/limits";

export interface RawBody {
  contentType: string | null;
  contentLength: string | null;
  body: AsyncIterable<Uint8Array> | null;
}

const TOO_LARGE = `body: must be at most ${MESSAGE_BODY_MAX_BYTES} bytes`;

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/** Reads and parses the body; throws 400 `Invalid request` naming what is wrong. */
export async function readJsonBody(raw: RawBody): Promise<unknown> {
  if (!isJsonContentType(raw.contentType)) throw invalidRequest("Content-Type: must be application/json");
  const declared = raw.contentLength === null ? Number.NaN : Number(raw.contentLength);
  if (Number.isFinite(declared) && declared > MESSAGE_BODY_MAX_BYTES) throw invalidRequest(TOO_LARGE);

  const bytes = raw.body ? await readAtMost(raw.body, MESSAGE_BODY_MAX_BYTES) : new Uint8Array();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidRequest("body: must be UTF-8 encoded JSON");
  }
  if (text.trim() === "") throw invalidRequest("body: must be a JSON object");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest("body: must be valid JSON");
  }
  const unstorable = pathOfUnstorableText(parsed);
  if (unstorable !== null) throw invalidRequest(`${unstorable}: ${UNSTORABLE_TEXT_RULE}`);
  return parsed;
}

/**
 * All bytes of the body, or 400 as soon as more than `limit` bytes have arrived. Iterated by hand:
 * leaving a for-await early would destroy a Node request, and its socket with it, before the 400
 * is written.
 */
async function readAtMost(body: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) break;
    total += value.byteLength;
    if (total > limit) throw invalidRequest(TOO_LARGE);
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
