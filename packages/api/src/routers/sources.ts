import {
  createSource,
  createSourceInput,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "@parley/core/admin";
import { sourceListOutput, sourceOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const sourcesRouter = createTRPCRouter({
  list: protectedProcedure.output(sourceListOutput).query(({ ctx }) => listSources(ctx.app.db, ctx.session.workspaceId)),
  create: protectedProcedure
    .input(createSourceInput)
    .output(sourceOutput)
    .mutation(({ ctx, input }) => createSource(ctx.app.db, ctx.session, input)),
  update: protectedProcedure
    .input(updateSourceInput)
    .output(sourceOutput)
    .mutation(({ ctx, input }) => updateSource(ctx.app.db, ctx.session, input)),
  setAgents: protectedProcedure
    .input(setSourceAgentsInput)
    .output(sourceOutput)
    .mutation(({ ctx, input }) => setSourceAgents(ctx.app.db, ctx.session, input)),
});
