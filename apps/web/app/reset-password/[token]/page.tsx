import { isAppError } from "@parley/core";
import { limitPasswordResetAttempt, openPasswordReset } from "@parley/core/people";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ResetPasswordForm } from "~/panel/auth/ResetPasswordForm.tsx";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";
import "../../panel/panel.css";

export const dynamic = "force-dynamic";
// no-referrer: the token in this page's URL never leaves in a Referer header.
export const metadata: Metadata = { title: "Choose a new password", robots: { index: false }, referrer: "no-referrer" };

/** The reset link's page: the form for a new password, or one clear message whatever is wrong with the link. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const ctx = await getAppContext();
  let reset: { email: string } | null = null;
  let problem = "";
  try {
    await limitPasswordResetAttempt(ctx.limiters, requestClientIp({ headers: await headers() }, ctx.trustProxy));
    reset = await openPasswordReset(ctx.db, token, ctx.now());
  } catch (error) {
    if (!isAppError(error)) throw error;
    problem = error.message;
  }
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        {reset ? (
          <>
            <h1>Choose a new password</h1>
            <p className="muted">Setting it signs you out of every other browser.</p>
            <ResetPasswordForm token={token} email={reset.email} />
          </>
        ) : (
          <>
            <h1>This link cannot be used</h1>
            <p role="alert">{problem}</p>
            <p>
              <Link href="/forgot-password">Ask for a new link</Link> · <Link href="/signin">Go to sign-in</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
