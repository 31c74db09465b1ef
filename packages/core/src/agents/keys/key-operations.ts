// The control panel's operations on an agent's HTTP API key (the `keys` router of packages/api).
import { z } from "zod";
import { panelOperationsOver } from "../../people/panel-operation.ts";
import type { PlatformContext } from "../../platform/context.ts";
import { agentKeyInput, issueAgentKey, revokeWorkspaceAgentKey } from "./operations.ts";

/** The one time an agent key is shown: the key itself, then only its last 4 characters. */
export const issuedAgentKeyOutput = z.object({
  key: z.string(),
  last4: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
});

export const revokedAgentKeyOutput = z.object({ revoked: z.boolean() });

const panel = panelOperationsOver<PlatformContext>();

export const keyOperations = {
  generate: panel.mutation({
    permission: "keys.manage",
    input: agentKeyInput,
    output: issuedAgentKeyOutput,
    run: ({ app, scope }, input) => issueAgentKey(app.db, scope, input.agentId, app.now()),
  }),
  revoke: panel.mutation({
    permission: "keys.manage",
    input: agentKeyInput,
    output: revokedAgentKeyOutput,
    run: ({ app, scope }, input) => revokeWorkspaceAgentKey(app.db, scope, input.agentId),
  }),
};
