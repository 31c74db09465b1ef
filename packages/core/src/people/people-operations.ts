// The People page: invitations, roles, deactivation (the `people` router of packages/api).
import { z } from "zod";
import type { PlatformContext } from "../platform/context.ts";
import { id, moment } from "../platform/panel-outputs.ts";
import { panelOperationsOver } from "./panel-operation.ts";
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
} from "./people.ts";

const role = z.enum(["owner", "admin", "editor", "support"]);

export const personOutput = z.object({ id, email: z.string(), name: z.string(), role, active: z.boolean(), createdAt: moment });

export const peopleOutput = z.object({
  people: z.array(personOutput),
  invitations: z.array(z.object({ id, email: z.string(), role, createdAt: moment, expiresAt: moment })),
});

/** The invitation link: shown once (only its hash is stored); whether it also went out by email. */
export const createdInvitationOutput = z.object({
  id,
  email: z.string(),
  role,
  link: z.string(),
  expiresAt: moment,
  emailed: z.enum(["sent", "failed", "off"]),
});

export const revokedInvitationOutput = z.object({ revoked: z.boolean() });

const panel = panelOperationsOver<PlatformContext>();

export const peopleOperations = {
  list: panel.query({
    permission: "people.manage",
    output: peopleOutput,
    run: ({ app, scope }) => listPeople(app.db, scope.workspaceId, app.now()),
  }),
  /** Returns the invitation link: the only time it is shown. */
  invite: panel.mutation({
    permission: "people.manage",
    input: inviteInput,
    output: createdInvitationOutput,
    run: ({ app, scope }, input) => inviteTeamMember(app, scope, input, app.now()),
  }),
  revokeInvitation: panel.mutation({
    permission: "people.manage",
    input: invitationIdInput,
    output: revokedInvitationOutput,
    run: ({ app, scope }, input) => revokeInvitation(app.db, scope, input.id),
  }),
  setRole: panel.mutation({
    permission: "people.manage",
    input: setRoleInput,
    output: personOutput,
    run: ({ app, scope }, input) => setRole(app.db, scope, input),
  }),
  deactivate: panel.mutation({
    permission: "people.manage",
    input: personIdInput,
    output: personOutput,
    run: ({ app, scope }, input) => deactivatePerson(app.db, scope, input.userId, app.now()),
  }),
  reactivate: panel.mutation({
    permission: "people.manage",
    input: personIdInput,
    output: personOutput,
    run: ({ app, scope }, input) => reactivatePerson(app.db, scope, input.userId),
  }),
};
