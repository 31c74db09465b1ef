import { limitInvitationAttempt, openInvitation } from "@parley/core/people";
import type { Metadata } from "next";
import Link from "next/link";
import { openTokenLink, TokenLinkPage } from "~/panel/auth/TokenLinkPage.tsx";
import { AcceptInvitationForm } from "~/panel/people/AcceptInvitationForm.tsx";
import "../../panel/panel.css";

export const dynamic = "force-dynamic";
// no-referrer: the token in this page's URL never leaves in a Referer header.
export const metadata: Metadata = { title: "Join the team", robots: { index: false }, referrer: "no-referrer" };

const ROLE_NAMES = { owner: "an owner", admin: "an admin", editor: "an editor", support: "a support agent" } as const;

/** The invitation link's page: the form to accept it, or one clear message whatever is wrong with the link. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await openTokenLink(limitInvitationAttempt, (ctx) => openInvitation(ctx.db, token, ctx.now()));
  return link.ok ? (
    <TokenLinkPage
      usable
      heading={`Join ${link.value.workspaceName}`}
      intro={`You are invited as ${ROLE_NAMES[link.value.role]}. Choose your name and a password to create your account.`}
      form={<AcceptInvitationForm token={token} email={link.value.email} />}
    />
  ) : (
    <TokenLinkPage
      usable={false}
      heading="This invitation cannot be used"
      problem={link.problem}
      links={<Link href="/signin">Go to sign-in</Link>}
    />
  );
}
