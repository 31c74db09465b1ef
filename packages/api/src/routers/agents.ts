import { agentIdInput, createAgent, createAgentInput, getAgent, listAgents, updateAgent, updateAgentInput } from "@parley/core/admin";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const agentsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listAgents(ctx.app.db, ctx.session.workspaceId)),
  get: protectedProcedure.input(agentIdInput).query(({ ctx, input }) => getAgent(ctx.app.db, ctx.session.workspaceId, input.id)),
  create: protectedProcedure.input(createAgentInput).mutation(({ ctx, input }) => createAgent(ctx.app.db, ctx.session.workspaceId, input)),
  update: protectedProcedure.input(updateAgentInput).mutation(({ ctx, input }) => updateAgent(ctx.app.db, ctx.session.workspaceId, input)),
});
