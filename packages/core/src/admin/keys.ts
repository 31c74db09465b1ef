// The agent HTTP API key as the control panel manages it: the same core functions the REST key
// routes use (../keys.ts), limited to the admin's workspace.
import type { Database } from "@parley/db";
import { z } from "zod";
import { generateAgentKey, revokeAgentKey } from "../keys.ts";
import { rowId } from "./scope.ts";

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
