// Starting an article import: the upload (a .zip, a JSON export or a URL list) in the body, the
// source and kind in the query; session required. One core call; the worker does the import.
import { AppError, errorResult, jsonResult } from "@parley/core";
import { isSameOrigin } from "@parley/core/admin";
import { startImport, startImportQuery } from "@parley/core/imports";
import { IMPORT_UPLOAD_MAX_BYTES } from "@parley/core/limits";
import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { respond } from "~/server/http/write.ts";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const ctx = await getAppContext();
    const session = await sessionFromRequest(request);
    if (!session) throw new AppError("UNAUTHORIZED");
    if (!isSameOrigin(request, ctx.appUrl, ctx.trustProxy)) throw new AppError("FORBIDDEN");
    const parsed = startImportQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success)
      throw new AppError("INVALID_REQUEST", { details: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") });
    const body = await readCapped(request, IMPORT_UPLOAD_MAX_BYTES);
    const job = await startImport(ctx, session, parsed.data, body);
    return respond(request, jsonResult({ data: job }, 202, { "cache-control": "no-store" }));
  } catch (error) {
    return respond(request, errorResult(error, { "cache-control": "no-store" }));
  }
}

/** The body, refused with 413 as soon as it passes `max` bytes (never buffered beyond it). */
async function readCapped(request: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) throw new AppError("PAYLOAD_TOO_LARGE", { details: `At most ${max / 1024 / 1024} MB` });
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > max) throw new AppError("PAYLOAD_TOO_LARGE", { details: `At most ${max / 1024 / 1024} MB` });
      chunks.push(chunk);
    }
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
