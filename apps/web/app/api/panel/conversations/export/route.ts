// The inbox's export download (CSV or JSON transcripts, the panel's filters in the query): session
// required; one core call, its body streamed.
import { AppError, errorResult } from "@parley/core";
import { exportConversations, parseExportQuery } from "@parley/core/conversations";
import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { requestClient } from "~/server/http/request.ts";
import { respond } from "~/server/http/write.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const session = await sessionFromRequest(request);
    if (!session) throw new AppError("UNAUTHORIZED");
    const ctx = await getAppContext();
    const scope = { ...session, client: requestClient(request, ctx.trustProxy) };
    return respond(request, await exportConversations(ctx, scope, parseExportQuery(new URL(request.url).searchParams)));
  } catch (error) {
    return respond(request, errorResult(error, { "cache-control": "no-store" }));
  }
}
