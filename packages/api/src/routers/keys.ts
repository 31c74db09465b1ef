import { agentKeyInput, issueAgentKey, revokeWorkspaceAgentKey } from "@parley/core/agents";
import { issuedAgentKeyOutput, revokedAgentKeyOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const keysRouter = createTRPCRouter({
  generate: protectedProcedure
    .input(agentKeyInput)
    .output(issuedAgentKeyOutput)
    .mutation(({ ctx, input }) => issueAgentKey(ctx.app.db, ctx.session, input.agentId, ctx.app.now())),
  revoke: protectedProcedure
    .input(agentKeyInput)
    .output(revokedAgentKeyOutput)
    .mutation(({ ctx, input }) => revokeWorkspaceAgentKey(ctx.app.db, ctx.session, input.agentId)),
});
