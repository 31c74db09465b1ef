import { listAudit, listAuditActors, listAuditInput } from "@parley/core/people";
import { auditActorsOutput, auditPageOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

// Read only: no procedure edits or deletes an event.
export const auditRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listAuditInput)
    .output(auditPageOutput)
    .query(({ ctx, input }) => listAudit(ctx.app.db, ctx.session, input)),
  /** Who appears in the log (the actor filter). */
  actors: protectedProcedure.output(auditActorsOutput).query(({ ctx }) => listAuditActors(ctx.app.db, ctx.session)),
});
