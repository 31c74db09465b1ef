import { listTeamMembers } from "@parley/core/people";
import { teamMembersOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const teamRouter = createTRPCRouter({
  /** The workspace's people: assignees and the assignee filter. */
  list: protectedProcedure.output(teamMembersOutput).query(({ ctx }) => listTeamMembers(ctx.app.db, ctx.session.workspaceId)),
});
