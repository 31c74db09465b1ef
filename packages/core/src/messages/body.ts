// Reading the send-message body: JSON only, at most MESSAGE_BODY_MAX_BYTES bytes. The size is
// enforced before parsing (from Content-Length when sent, and while reading in any case), so an
// oversized body is never buffered whole; it is 413 `Payload too large`, as the server entry's
// own cap answers it.
import { AppError } from "../errors.ts";
import { MESSAGE_BODY_MAX_BYTES } from "../limits.ts";
import { pathOfUnstorableText, UNSTORABLE_TEXT_RULE } from "../text.ts";
import { invalidRequest } from "./schema.ts";

export interface RawBody {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", { details: `body: must be at most ${MESSAGE_BODY_MAX_BYTES} bytes` });

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/** Reads and parses the body; throws 400 `Invalid request` naming what is wrong, or 413 when it is too large. */
export async function readJsonBody(raw: RawBody): Promise<unknown> {
  if (!isJsonContentType(raw.contentType)) throw invalidRequest("Content-Type: must be application/json");
  const declared = raw.contentLength === null ? Number.NaN : Number(raw.contentLength);
  if (Number.isFinite(declared) && declared > MESSAGE_BODY_MAX_BYTES) throw tooLarge();

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

/** All bytes of the stream, or 413 as soon as more than `limit` bytes have arrived. */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
