import { eraseVisitorData, eraseVisitorInput } from "@parley/core/conversations";
import { erasedVisitorOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const visitorDataRouter = createTRPCRouter({
  /** Erases one conversation's visitor data, or every conversation of an email address (typed confirmation). */
  erase: protectedProcedure
    .input(eraseVisitorInput)
    .output(erasedVisitorOutput)
    .mutation(({ ctx, input }) => eraseVisitorData(ctx.app, ctx.session, input)),
});
