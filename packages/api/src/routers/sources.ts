import {
  createSource,
  createSourceInput,
  listSources,
  setSourceAgents,
  setSourceAgentsInput,
  updateSource,
  updateSourceInput,
} from "@parley/core/admin";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const sourcesRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listSources(ctx.app.db, ctx.session.workspaceId)),
  create: protectedProcedure
    .input(createSourceInput)
    .mutation(({ ctx, input }) => createSource(ctx.app.db, ctx.session.workspaceId, input)),
  update: protectedProcedure
    .input(updateSourceInput)
    .mutation(({ ctx, input }) => updateSource(ctx.app.db, ctx.session.workspaceId, input)),
  setAgents: protectedProcedure
    .input(setSourceAgentsInput)
    .mutation(({ ctx, input }) => setSourceAgents(ctx.app.db, ctx.session.workspaceId, input)),
});
