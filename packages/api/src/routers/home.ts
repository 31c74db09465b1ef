import { panelHome } from "@parley/core/home";
import { panelHomeOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const homeRouter = createTRPCRouter({
  /** The panel's home page, in one call: waiting escalations, activity, unanswered, quotas, checklist. */
  get: protectedProcedure.output(panelHomeOutput).query(({ ctx }) => panelHome(ctx.app.db, ctx.session, ctx.app.now())),
});
