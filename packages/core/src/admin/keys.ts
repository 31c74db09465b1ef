// The agent HTTP API key as the control panel and the REST key routes manage it (the same core
// functions, ../keys.ts), limited to the admin's workspace.
import type { Database } from "@parley/db";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { generateAgentKey, revokeAgentKey } from "../keys.ts";
import { errorResult, type HttpResult, jsonResult } from "../results.ts";
import { assertMayCall, type PanelOperation } from "./permissions.ts";
import { type AdminScope, rowId } from "./scope.ts";

export const agentKeyInput = z.object({ agentId: rowId });

export interface IssuedAgentKey {
  /** Shown once; never stored or logged. */
  key: string;
  last4: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Generates or rotates the key of an agent of the workspace (AGENT_NOT_FOUND otherwise). */
export async function issueAgentKey(db: Database, workspaceId: string, agentId: string, now: Date): Promise<IssuedAgentKey> {
  const { key, last4, createdAt } = await generateAgentKey(db, agentId, { workspaceId, now });
  return { key, last4, createdAt: createdAt.toISOString() };
}

/** Revokes the key of an agent of the workspace; `revoked` is false when it had none. */
export function revokeWorkspaceAgentKey(db: Database, workspaceId: string, agentId: string): Promise<{ revoked: boolean }> {
  return revokeAgentKey(db, agentId, { workspaceId });
}

/** Who calls a key route: the panel session (null without one) and whether Origin is the app's own. */
export interface KeyRouteCaller {
  session: AdminScope | null;
  sameOrigin: boolean;
}

/** Nothing about a key may be cached, least of all the one response that shows it. */
const NO_STORE = { "cache-control": "no-store" };

/** POST /api/agents/{agent_id}/http-api-key (spec 4.6): 201 {"data":{"key","last4","createdAt"}}, shown once. */
export async function generateHttpApiKey(ctx: AppContext, caller: KeyRouteCaller, agentId: string): Promise<HttpResult> {
  try {
    const { workspaceId } = authorizeKeyRoute(caller, "POST /api/agents/{agent_id}/http-api-key");
    return jsonResult({ data: await issueAgentKey(ctx.db, workspaceId, agentId, ctx.now()) }, 201, NO_STORE);
  } catch (error) {
    return errorResult(error, NO_STORE);
  }
}

/** DELETE /api/agents/{agent_id}/http-api-key: 204, also when the agent had no key. */
export async function revokeHttpApiKey(ctx: AppContext, caller: KeyRouteCaller, agentId: string): Promise<HttpResult> {
  try {
    const { workspaceId } = authorizeKeyRoute(caller, "DELETE /api/agents/{agent_id}/http-api-key");
    await revokeWorkspaceAgentKey(ctx.db, workspaceId, agentId);
    return { status: 204, headers: NO_STORE };
  } catch (error) {
    return errorResult(error, NO_STORE);
  }
}

/** Session-authenticated (the panel's cookie), only from the app's own origin, by a role that manages keys. */
function authorizeKeyRoute(caller: KeyRouteCaller, operation: PanelOperation): AdminScope {
  if (!caller.session) throw new AppError("UNAUTHORIZED");
  if (!caller.sameOrigin) throw new AppError("FORBIDDEN");
  assertMayCall(caller.session, operation);
  return caller.session;
}
