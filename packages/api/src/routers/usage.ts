import { dailyUsage, dailyUsageInput, usageSummary } from "@parley/core/usage";
import { dailyUsageOutput, usageSummaryOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const usageRouter = createTRPCRouter({
  summary: protectedProcedure
    .output(usageSummaryOutput)
    .query(({ ctx }) => usageSummary(ctx.app.db, ctx.session.workspaceId, ctx.app.now())),
  daily: protectedProcedure
    .input(dailyUsageInput)
    .output(dailyUsageOutput)
    .query(({ ctx, input }) => dailyUsage(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
});
