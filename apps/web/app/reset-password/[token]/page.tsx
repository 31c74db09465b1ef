import { limitPasswordResetAttempt, openPasswordReset } from "@parley/core/people";
import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "~/panel/auth/ResetPasswordForm.tsx";
import { openTokenLink, TokenLinkPage } from "~/panel/auth/TokenLinkPage.tsx";
import "../../panel/panel.css";

export const dynamic = "force-dynamic";
// no-referrer: the token in this page's URL never leaves in a Referer header.
export const metadata: Metadata = { title: "Choose a new password", robots: { index: false }, referrer: "no-referrer" };

/** The reset link's page: the form for a new password, or one clear message whatever is wrong with the link. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await openTokenLink(limitPasswordResetAttempt, (ctx) => openPasswordReset(ctx.db, token, ctx.now()));
  return link.ok ? (
    <TokenLinkPage
      usable
      heading="Choose a new password"
      intro="Setting it signs you out of every other browser."
      form={<ResetPasswordForm token={token} email={link.value.email} />}
    />
  ) : (
    <TokenLinkPage
      usable={false}
      heading="This link cannot be used"
      problem={link.problem}
      links={
        <>
          <Link href="/forgot-password">Ask for a new link</Link> · <Link href="/signin">Go to sign-in</Link>
        </>
      }
    />
  );
}
