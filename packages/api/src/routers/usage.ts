import { dailyUsage, dailyUsageInput, usageSummary } from "@parley/core/admin";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const usageRouter = createTRPCRouter({
  summary: protectedProcedure.query(({ ctx }) => usageSummary(ctx.app.db, ctx.session.workspaceId, ctx.app.now())),
  daily: protectedProcedure
    .input(dailyUsageInput)
    .query(({ ctx, input }) => dailyUsage(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
});
