// The panel's live inbox events (Server-Sent Events): session required; one core call.
import { ERRORS } from "@parley/core";
import { INBOX_STREAM_HEADERS, inboxEventStream } from "@parley/core/conversations";
import { checkSession, roleMayCall } from "@parley/core/people";
import { sessionFromRequest } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const session = await sessionFromRequest(request);
  if (!session) return Response.json({ error: ERRORS.UNAUTHORIZED.message }, { status: 401 });
  if (!roleMayCall(session.role, "GET /api/panel/events")) return Response.json({ error: ERRORS.FORBIDDEN.message }, { status: 403 });
  const ctx = await getAppContext();
  // The session is looked at again at each heartbeat (without counting as a use): the stream ends with it.
  const current = () => checkSession(ctx.db, session, ctx.now(), { touch: false });
  return new Response(inboxEventStream(ctx.live, session, request.signal, current), { headers: INBOX_STREAM_HEADERS });
}
