import { isAppError } from "@parley/core";
import { limitInvitationAttempt, openInvitation } from "@parley/core/people";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { AcceptInvitationForm } from "~/panel/people/AcceptInvitationForm.tsx";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";
import "../../panel/panel.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join the team", robots: { index: false }, referrer: "no-referrer" };

const ROLE_NAMES = { owner: "an owner", admin: "an admin", editor: "an editor", support: "a support agent" } as const;

/** The invitation link's page: the form to accept it, or one clear message whatever is wrong with the link. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const ctx = await getAppContext();
  let invitation: Awaited<ReturnType<typeof openInvitation>> | null = null;
  let problem = "";
  try {
    await limitInvitationAttempt(ctx.limiters, requestClientIp({ headers: await headers() }, ctx.trustProxy));
    invitation = await openInvitation(ctx.db, token, ctx.now());
  } catch (error) {
    if (!isAppError(error)) throw error;
    problem = error.message;
  }
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        {invitation ? (
          <>
            <h1>Join {invitation.workspaceName}</h1>
            <p className="muted">
              You are invited as {ROLE_NAMES[invitation.role]}. Choose your name and a password to create your account.
            </p>
            <AcceptInvitationForm token={token} email={invitation.email} />
          </>
        ) : (
          <>
            <h1>This invitation cannot be used</h1>
            <p role="alert">{problem}</p>
            <p>
              <Link href="/signin">Go to sign-in</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
