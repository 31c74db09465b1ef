import {
  deactivatePerson,
  invitationIdInput,
  inviteInput,
  inviteTeamMember,
  listPeople,
  personIdInput,
  reactivatePerson,
  revokeInvitation,
  setRole,
  setRoleInput,
} from "@parley/core/people";
import { createdInvitationOutput, peopleOutput, personOutput, revokedInvitationOutput } from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const peopleRouter = createTRPCRouter({
  list: protectedProcedure.output(peopleOutput).query(({ ctx }) => listPeople(ctx.app.db, ctx.session.workspaceId, ctx.app.now())),
  /** Returns the invitation link: the only time it is shown. */
  invite: protectedProcedure
    .input(inviteInput)
    .output(createdInvitationOutput)
    .mutation(({ ctx, input }) => inviteTeamMember(ctx.app, ctx.session, input, ctx.app.now())),
  revokeInvitation: protectedProcedure
    .input(invitationIdInput)
    .output(revokedInvitationOutput)
    .mutation(({ ctx, input }) => revokeInvitation(ctx.app.db, ctx.session, input.id)),
  setRole: protectedProcedure
    .input(setRoleInput)
    .output(personOutput)
    .mutation(({ ctx, input }) => setRole(ctx.app.db, ctx.session, input)),
  deactivate: protectedProcedure
    .input(personIdInput)
    .output(personOutput)
    .mutation(({ ctx, input }) => deactivatePerson(ctx.app.db, ctx.session, input.userId, ctx.app.now())),
  reactivate: protectedProcedure
    .input(personIdInput)
    .output(personOutput)
    .mutation(({ ctx, input }) => reactivatePerson(ctx.app.db, ctx.session, input.userId)),
});
