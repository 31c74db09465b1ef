// One's own account: password and sessions (the `account` router of packages/api).
import { z } from "zod";
import type { PlatformContext } from "../platform/context.ts";
import { count, id, moment } from "../platform/panel-outputs.ts";
import { changePassword, changePasswordInput, endOwnSessionById, getAccount, ownSessions, sessionIdInput } from "./account.ts";
import { panelOperationsOver } from "./panel-operation.ts";
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
    current: z.boolean(),
  }),
);

export const passwordChangedOutput = z.object({ endedSessions: count });

export const endedSessionOutput = z.object({ ended: z.boolean() });

const panel = panelOperationsOver<PlatformContext>();

export const accountOperations = {
  get: panel.query({
    permission: "account.own",
    output: accountOutput,
    run: ({ app, scope }) => getAccount(app.db, scope),
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
};
