import { agentIdInput, createAgent, createAgentInput, getAgent, listAgents, updateAgent, updateAgentInput } from "@parley/core/agents";
import { deleteAgent, runTestTurn, testChatInput } from "@parley/core/conversations";
import { deleteByIdInput, getAgentKnowledgeSearch } from "@parley/core/knowledge";
import { voiceAvailability } from "@parley/core/voice";
import {
  agentDetailOutput,
  agentKnowledgeSearchOutput,
  agentListOutput,
  deletedAgentOutput,
  testChatOutput,
  voiceAvailabilityOutput,
} from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const agentsRouter = createTRPCRouter({
  list: protectedProcedure.output(agentListOutput).query(({ ctx }) => listAgents(ctx.app.db, ctx.session.workspaceId)),
  get: protectedProcedure
    .input(agentIdInput)
    .output(agentDetailOutput)
    .query(({ ctx, input }) => getAgent(ctx.app.db, ctx.session.workspaceId, input.id)),
  /** Whether the agent's knowledge is searched in process or, over the memory budget, in the database. */
  knowledgeSearch: protectedProcedure
    .input(agentIdInput)
    .output(agentKnowledgeSearchOutput)
    .query(({ ctx, input }) => getAgentKnowledgeSearch(ctx.app.db, ctx.session.workspaceId, input.id)),
  /** The speech engines of this server, for the settings' Voice section: recognition, synthesis voices. */
  voiceAvailability: protectedProcedure.output(voiceAvailabilityOutput).query(({ ctx }) => voiceAvailability(ctx.app)),
  create: protectedProcedure
    .input(createAgentInput)
    .output(agentDetailOutput)
    .mutation(({ ctx, input }) => createAgent(ctx.app.db, ctx.session, input)),
  update: protectedProcedure
    .input(updateAgentInput)
    .output(agentDetailOutput)
    .mutation(({ ctx, input }) => updateAgent(ctx.app.db, ctx.session, input)),
  /** Deletes the agent with its key, conversations and usage (owners only). */
  delete: protectedProcedure
    .input(deleteByIdInput)
    .output(deletedAgentOutput)
    .mutation(({ ctx, input }) => deleteAgent(ctx.app.db, ctx.session, input.id)),
  /** One turn of the agent page's test chat (a test conversation). */
  testChat: protectedProcedure
    .input(testChatInput)
    .output(testChatOutput)
    .mutation(({ ctx, input }) => runTestTurn(ctx.app, ctx.session.workspaceId, input)),
});
