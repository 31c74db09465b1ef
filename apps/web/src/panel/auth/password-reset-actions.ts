"use server";

// The two writes of "Forgot password?", open to anyone (no session): ask for a reset link, and set
// a new password with one. Each is counted against the client IP's budget (and asking, against the
// address's); the rules (token, expiry, single use, password, same answer for every address) are
// core's. Neither returns or logs a token.
import { isAppError } from "@parley/core";
import {
  completePasswordReset,
  completePasswordResetInput,
  limitPasswordResetAttempt,
  passwordResetRequestInput,
  requestPasswordReset,
} from "@parley/core/people";
import { headers } from "next/headers";
import { z } from "zod";
import { getAppContext } from "~/server/context.ts";
import { requestClient } from "~/server/http/request.ts";

export type PasswordResetResult =
  | { ok: true; message: string; email?: string }
  | { ok: false; error: string; fieldErrors: Record<string, string | undefined> };

/** Asks for a reset link: the same answer whether or not the address has an account. */
export async function requestPasswordResetAction(input: { email: string }): Promise<PasswordResetResult> {
  const ctx = await getAppContext();
  const parsed = passwordResetRequestInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: "", fieldErrors: { email: z.flattenError(parsed.error).fieldErrors.email?.[0] } };
  try {
    const client = requestClient({ headers: await headers() }, ctx.trustProxy);
    // The delivery runs on after the answer (it never rejects): awaiting it would tell by the time taken.
    const { message } = await requestPasswordReset(ctx, parsed.data, client, ctx.now());
    return { ok: true, message };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message, fieldErrors: {} };
    throw error;
  }
}

/** Sets a new password with a reset link; every session of the person ends. Returns the email to sign in with. */
export async function completePasswordResetAction(input: { token: string; password: string }): Promise<PasswordResetResult> {
  const ctx = await getAppContext();
  try {
    const client = requestClient({ headers: await headers() }, ctx.trustProxy);
    await limitPasswordResetAttempt(ctx.limiters, client.ip);
    const parsed = completePasswordResetInput.safeParse(input);
    if (!parsed.success) return { ok: false, error: "", fieldErrors: { password: z.flattenError(parsed.error).fieldErrors.password?.[0] } };
    const { email } = await completePasswordReset(ctx.db, parsed.data, client, ctx.now());
    return { ok: true, message: "Your password is changed.", email };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message, fieldErrors: {} };
    throw error;
  }
}
