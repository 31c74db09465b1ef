// Key management routes (spec 4.6): POST generates or rotates an agent's HTTP API key and shows it
// once; DELETE revokes it. Session-authenticated (the panel's cookie), inside the admin's workspace,
// and only from the app's own origin. Same core functions as the panel's keys.* procedures.

import type { AppContext } from "@parley/core";
import { AppError } from "@parley/core";
import type { AdminScope } from "@parley/core/admin";
import { isSameOrigin, issueAgentKey, revokeWorkspaceAgentKey } from "@parley/core/admin";
import { handle, json } from "../rest.ts";

export interface AgentKeyParams {
  agent_id: string;
}

/** Nothing about a key may be cached, least of all the one response that shows it. */
const NO_STORE = { "cache-control": "no-store" };

function authorize(ctx: AppContext, request: Request, session: AdminScope | null): AdminScope {
  if (!session) throw new AppError("UNAUTHORIZED");
  if (!isSameOrigin(request, ctx.appUrl, ctx.trustProxy)) throw new AppError("FORBIDDEN");
  return session;
}

/** POST /api/agents/{agent_id}/http-api-key: 201 {"data":{"key","last4","createdAt"}}. */
export function createHttpApiKey(ctx: AppContext, request: Request, params: AgentKeyParams, session: AdminScope | null): Promise<Response> {
  return handle(
    request,
    async () => {
      const { workspaceId } = authorize(ctx, request, session);
      const issued = await issueAgentKey(ctx.db, workspaceId, params.agent_id, ctx.now());
      return json({ data: issued }, 201);
    },
    NO_STORE,
  );
}

/** DELETE /api/agents/{agent_id}/http-api-key: 204, also when the agent had no key. */
export function revokeHttpApiKey(ctx: AppContext, request: Request, params: AgentKeyParams, session: AdminScope | null): Promise<Response> {
  return handle(
    request,
    async () => {
      const { workspaceId } = authorize(ctx, request, session);
      await revokeWorkspaceAgentKey(ctx.db, workspaceId, params.agent_id);
      return new Response(null, { status: 204 });
    },
    NO_STORE,
  );
}
