import { changePassword, changePasswordInput, endOwnSessionById, getAccount, ownSessions, sessionIdInput } from "@parley/core/people";
import { accountOutput, endedSessionOutput, ownSessionsOutput, passwordChangedOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const accountRouter = createTRPCRouter({
  get: protectedProcedure.output(accountOutput).query(({ ctx }) => getAccount(ctx.app.db, ctx.session)),
  /** Every other session of the person ends; this one stays. */
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .output(passwordChangedOutput)
    .mutation(({ ctx, input }) => changePassword(ctx.app, ctx.session, input, ctx.app.now())),
  sessions: protectedProcedure.output(ownSessionsOutput).query(({ ctx }) => ownSessions(ctx.app.db, ctx.session, ctx.app.now())),
  endSession: protectedProcedure
    .input(sessionIdInput)
    .output(endedSessionOutput)
    .mutation(({ ctx, input }) => endOwnSessionById(ctx.app.db, ctx.session, input.id, ctx.app.now())),
});
