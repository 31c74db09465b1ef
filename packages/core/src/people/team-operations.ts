// The workspace's people by name (the `team` router of packages/api).
import { z } from "zod";
import type { PlatformContext } from "../platform/context.ts";
import { id } from "../platform/panel-outputs.ts";
import { panelOperationsOver } from "./panel-operation.ts";
import { listTeamMembers } from "./team.ts";

export const teamMemberOutput = z.object({ id, name: z.string() });

export const teamMembersOutput = z.array(teamMemberOutput.extend({ email: z.string() }));

const panel = panelOperationsOver<PlatformContext>();

export const teamOperations = {
  /** The workspace's people: assignees and the assignee filter. */
  list: panel.query({
    permission: "team.read",
    output: teamMembersOutput,
    run: ({ app, scope }) => listTeamMembers(app.db, scope.workspaceId),
  }),
};
