"use server";

// The invitation page's one write: accept with a name and password. Counted against the client
// IP's budget of invitation attempts; the rules (token, expiry, single use, password) are core's.
import { isAppError } from "@parley/core";
import { acceptInvitation, acceptInvitationInput, limitInvitationAttempt } from "@parley/core/people";
import { headers } from "next/headers";
import { z } from "zod";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";

export type AcceptInvitationResult =
  | { ok: true; email: string }
  | { ok: false; error: string; fieldErrors: Record<string, string | undefined> };

export async function acceptInvitationAction(input: { token: string; name: string; password: string }): Promise<AcceptInvitationResult> {
  const ctx = await getAppContext();
  try {
    await limitInvitationAttempt(ctx.limiters, requestClientIp({ headers: await headers() }, ctx.trustProxy));
    const parsed = acceptInvitationInput.safeParse(input);
    if (!parsed.success) {
      const fields = z.flattenError(parsed.error).fieldErrors;
      return { ok: false, error: "", fieldErrors: { name: fields.name?.[0], password: fields.password?.[0] } };
    }
    return { ok: true, ...(await acceptInvitation(ctx.db, parsed.data, ctx.now())) };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message, fieldErrors: {} };
    throw error;
  }
}
