import {
  createSource,
  createSourceInput,
  deleteByIdInput,
  deleteSource,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "@parley/core/knowledge";
import { deletedSourceOutput, sourceListOutput, sourceOutput } from "../outputs.ts";
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
  /** Deletes the source with its articles; linked agents lose it. */
  delete: protectedProcedure
    .input(deleteByIdInput)
    .output(deletedSourceOutput)
    .mutation(({ ctx, input }) => deleteSource(ctx.app.db, ctx.session, input.id, ctx.app.now())),
});
