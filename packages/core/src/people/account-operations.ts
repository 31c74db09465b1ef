// One's own account: password and sessions (the `account` router of packages/api).
import { z } from "zod";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, moment } from "../platform/panel-outputs.ts";
import {
  changePassword,
  changePasswordInput,
  endOtherSessions,
  endOwnSessionById,
  getAccount,
  ownSessions,
  sessionIdInput,
} from "./account.ts";
import { panelOperationsOver } from "./panel-operation.ts";
import { PERMISSION_NAMES, permissionsOf } from "./permissions.ts";
import { ROLES } from "./scope.ts";

const role = z.enum(ROLES);

export const accountOutput = z.object({ id, email: z.string(), name: z.string(), role });

export const ownSessionsOutput = z.array(
  z.object({
    id,
    createdAt: moment,
    lastSeenAt: moment,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    /** The browser and system in words ("Chrome on Linux"). */
    browser: z.string(),
    current: z.boolean(),
  }),
);

/** Every permission with whether the person's role holds it (the panel shows only what it may do). */
export const permissionMapOutput = z.record(z.enum(PERMISSION_NAMES), z.boolean());

export const passwordChangedOutput = z.object({ endedSessions: count });

export const endedSessionOutput = z.object({ ended: z.boolean() });

export const endedOtherSessionsOutput = z.object({ endedSessions: count });

const panel = panelOperationsOver<PlatformContext>();

export const accountOperations = {
  get: panel.query({
    permission: "account.own",
    output: accountOutput,
    run: ({ app, scope }) => getAccount(app.db, scope),
  }),
  /**
   * What the signed-in person may do now: core's table for their role at this request. The panel
   * hides every action whose permission is false, and reads this again after any refusal.
   */
  permissions: panel.query({
    permission: "account.own",
    output: permissionMapOutput,
    run: ({ scope }) => permissionsOf(scope.role),
  }),
  /** Every other session of the person ends; this one stays. */
  changePassword: panel.mutation({
    permission: "account.own",
    input: changePasswordInput,
    output: passwordChangedOutput,
    run: ({ app, scope }, input) => changePassword(app, scope, input, app.now()),
  }),
  sessions: panel.query({
    permission: "account.own",
    output: ownSessionsOutput,
    run: ({ app, scope }) => ownSessions(app.db, scope, app.now()),
  }),
  endSession: panel.mutation({
    permission: "account.own",
    input: sessionIdInput,
    output: endedSessionOutput,
    run: ({ app, scope }, input) => endOwnSessionById(app.db, scope, input.id, app.now()),
  }),
  /** "Sign out everywhere else": every session of the person but this one ends. */
  endOtherSessions: panel.mutation({
    permission: "account.own",
    output: endedOtherSessionsOutput,
    run: ({ app, scope }) => endOtherSessions(app, scope, app.now()),
  }),
};
