// Starting an article import: the upload (a .zip, a JSON export or a URL list) in the body, the
// source and kind in the query; session required. One core call; the worker does the import.
import { AppError, errorResult, isSameOrigin, jsonResult } from "@parley/core";
import { parseStartImportQuery, startImport } from "@parley/core/knowledge";
import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { readCappedBody } from "~/server/http/capped-body.ts";
import { respond } from "~/server/http/write.ts";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const ctx = await getAppContext();
    const session = await sessionFromRequest(request);
    if (!session) throw new AppError("UNAUTHORIZED");
    if (!isSameOrigin(request, ctx.appUrl, ctx.trustProxy)) throw new AppError("FORBIDDEN");
    const query = parseStartImportQuery(new URL(request.url).searchParams);
    const job = await startImport(ctx, session, query, (maxBytes) => readCappedBody(request, maxBytes));
    return respond(request, jsonResult({ data: job }, 202, { "cache-control": "no-store" }));
  } catch (error) {
    return respond(request, errorResult(error, { "cache-control": "no-store" }));
  }
}
