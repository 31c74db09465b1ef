// POST /api/agent/{agentId}/messages (spec 4.1): a thin adapter over core's sendMessage, which
// holds every rule (auth, limits, validation, quotas, the turn). This passes the headers, the body
// stream and the client IP in, and maps the result (or the AppError) to a response.
import type { AppContext } from "@parley/core";
import { sendMessage } from "@parley/core/messages";
import { clientIp, handle, json } from "../rest.ts";

export function messagesRoute(ctx: AppContext, request: Request, params: { agentId: string }): Promise<Response> {
  return handle(request, async () => {
    const result = await sendMessage(ctx, {
      agentId: params.agentId,
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      contentLength: request.headers.get("content-length"),
      idempotencyKey: request.headers.get("idempotency-key"),
      body: request.body,
      clientIp: clientIp(request, ctx.trustProxy),
      signal: request.signal,
    });
    return json(result.body, result.status, result.headers);
  });
}
