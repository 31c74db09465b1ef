// The page behind an emailed one-time link (a password reset, a team invitation): the client IP's
// attempt is counted and the token opened, then either the link's form or one clear message
// whatever is wrong with it. The rules (budget, expiry, single use) are core's.
import { type AppContext, isAppError } from "@parley/core";
import type { RateLimiters } from "@parley/core/ratelimit";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";

export type OpenedTokenLink<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Counts this attempt against the client IP's budget, then opens the link; a refusal's message instead of throwing. */
export async function openTokenLink<T>(
  limitAttempt: (limiters: RateLimiters, clientIp: string) => Promise<void>,
  open: (ctx: AppContext) => Promise<T>,
): Promise<OpenedTokenLink<T>> {
  const ctx = await getAppContext();
  try {
    await limitAttempt(ctx.limiters, requestClientIp({ headers: await headers() }, ctx.trustProxy));
    return { ok: true, value: await open(ctx) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { ok: false, problem: error.message };
  }
}

/** The usable link's heading, explanation and form; or, when it cannot be used, the heading, why, and where to go instead. */
export function TokenLinkPage(
  props:
    | { usable: true; heading: string; intro: ReactNode; form: ReactNode }
    | { usable: false; heading: string; problem: string; links: ReactNode },
) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        <h1>{props.heading}</h1>
        {props.usable ? (
          <>
            <p className="muted">{props.intro}</p>
            {props.form}
          </>
        ) : (
          <>
            <p role="alert">{props.problem}</p>
            <p>{props.links}</p>
          </>
        )}
      </div>
    </main>
  );
}
