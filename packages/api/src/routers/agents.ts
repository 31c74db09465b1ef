import {
  agentIdInput,
  createAgent,
  createAgentInput,
  getAgent,
  listAgents,
  runTestTurn,
  testChatInput,
  updateAgent,
  updateAgentInput,
} from "@parley/core/admin";
import { agentDetailOutput, agentListOutput, testChatOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const agentsRouter = createTRPCRouter({
  list: protectedProcedure.output(agentListOutput).query(({ ctx }) => listAgents(ctx.app.db, ctx.session.workspaceId)),
  get: protectedProcedure
    .input(agentIdInput)
    .output(agentDetailOutput)
    .query(({ ctx, input }) => getAgent(ctx.app.db, ctx.session.workspaceId, input.id)),
  create: protectedProcedure
    .input(createAgentInput)
    .output(agentDetailOutput)
    .mutation(({ ctx, input }) => createAgent(ctx.app.db, ctx.session.workspaceId, input)),
  update: protectedProcedure
    .input(updateAgentInput)
    .output(agentDetailOutput)
    .mutation(({ ctx, input }) => updateAgent(ctx.app.db, ctx.session.workspaceId, input)),
  /** One turn of the agent page's test chat (a test conversation). */
  testChat: protectedProcedure
    .input(testChatInput)
    .output(testChatOutput)
    .mutation(({ ctx, input }) => runTestTurn(ctx.app, ctx.session.workspaceId, input)),
});
