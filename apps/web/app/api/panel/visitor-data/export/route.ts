// The visitor's data as a JSON download (?conversationId=... or ?email=...): session required;
// one core call, its body streamed.
import { AppError, errorResult } from "@parley/core";
import { exportVisitorData, parseVisitorTargetQuery } from "@parley/core/conversations";
import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { respond } from "~/server/http/write.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const session = await sessionFromRequest(request);
    if (!session) throw new AppError("UNAUTHORIZED");
    const ctx = await getAppContext();
    return respond(request, await exportVisitorData(ctx, session, parseVisitorTargetQuery(new URL(request.url).searchParams)));
  } catch (error) {
    return respond(request, errorResult(error, { "cache-control": "no-store" }));
  }
}
