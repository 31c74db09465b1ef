// The agent HTTP API key as the control panel and the REST key routes manage it (the same core
// functions, ./secrets.ts), limited to the admin's workspace.
import type { Database } from "@parley/db";
import { z } from "zod";
import { recordAudit } from "../../people/audit.ts";
import { PEOPLE_ERRORS } from "../../people/errors.ts";
import { assertMayCall, type SessionRoute } from "../../people/permissions.ts";
import { type AdminScope, rowId } from "../../people/scope.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { AppError } from "../../platform/errors.ts";
import { errorResult, type HttpResult, jsonResult } from "../../platform/results.ts";
import { clearAgentKey, storeAgentKey } from "./secrets.ts";

export const agentKeyInput = z.object({ agentId: rowId });

export interface IssuedAgentKey {
  /** Shown once; never stored or logged. */
  key: string;
  last4: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Generates or rotates the key of an agent of the workspace (AGENT_NOT_FOUND otherwise), recorded in the audit log. */
export async function issueAgentKey(db: Database, scope: AdminScope, agentId: string, now: Date): Promise<IssuedAgentKey> {
  const { workspaceId } = scope;
  const { key, last4, createdAt } = await db.prisma.$transaction(async (tx) => {
    const agent = await tx.agent.findFirst({ where: { id: agentId, workspaceId }, select: { name: true, keyHash: true } });
    if (!agent) throw new AppError(PEOPLE_ERRORS.AGENT_NOT_FOUND);
    const issued = await storeAgentKey(tx, agentId, { workspaceId, now });
    const action = agent.keyHash === null ? "agent.key.generated" : "agent.key.rotated";
    await recordAudit(tx, scope, { action, targetType: "agent", targetId: agentId, targetLabel: agent.name });
    return issued;
  });
  return { key, last4, createdAt: createdAt.toISOString() };
}

/** Revokes the key of an agent of the workspace; `revoked` is false when it had none (nothing is recorded then). */
export function revokeWorkspaceAgentKey(db: Database, scope: AdminScope, agentId: string): Promise<{ revoked: boolean }> {
  const { workspaceId } = scope;
  return db.prisma.$transaction(async (tx) => {
    const result = await clearAgentKey(tx, agentId, { workspaceId });
    if (result.revoked) {
      const agent = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { name: true } });
      await recordAudit(tx, scope, { action: "agent.key.revoked", targetType: "agent", targetId: agentId, targetLabel: agent.name });
    }
    return result;
  });
}

/** Who calls a key route: the panel session (null without one) and whether Origin is the app's own. */
export interface KeyRouteCaller {
  session: AdminScope | null;
  sameOrigin: boolean;
}

/** Nothing about a key may be cached, least of all the one response that shows it. */
const NO_STORE = { "cache-control": "no-store" };

/** POST /api/agents/{agent_id}/http-api-key (spec 4.6): 201 {"data":{"key","last4","createdAt"}}, shown once. */
export async function generateHttpApiKey(ctx: PlatformContext, caller: KeyRouteCaller, agentId: string): Promise<HttpResult> {
  try {
    const scope = authorizeKeyRoute(caller, "POST /api/agents/{agent_id}/http-api-key");
    return jsonResult({ data: await issueAgentKey(ctx.db, scope, agentId, ctx.now()) }, 201, NO_STORE);
  } catch (error) {
    return errorResult(error, NO_STORE);
  }
}

/** DELETE /api/agents/{agent_id}/http-api-key: 204, also when the agent had no key. */
export async function revokeHttpApiKey(ctx: PlatformContext, caller: KeyRouteCaller, agentId: string): Promise<HttpResult> {
  try {
    const scope = authorizeKeyRoute(caller, "DELETE /api/agents/{agent_id}/http-api-key");
    await revokeWorkspaceAgentKey(ctx.db, scope, agentId);
    return { status: 204, headers: NO_STORE };
  } catch (error) {
    return errorResult(error, NO_STORE);
  }
}

/** Session-authenticated (the panel's cookie), only from the app's own origin, by a role that manages keys. */
function authorizeKeyRoute(caller: KeyRouteCaller, operation: SessionRoute): AdminScope {
  if (!caller.session) throw new AppError("UNAUTHORIZED");
  if (!caller.sameOrigin) throw new AppError("FORBIDDEN");
  assertMayCall(caller.session, operation);
  return caller.session;
}
