// The invitation as an email (SMTP_URL): sent after the invitation is stored, never undoing it.
import type { Database } from "@parley/db";
import { describeError, logger } from "../platform/logger.ts";
import type { Mailer, MailMessage } from "../platform/mail.ts";
import { INVITATION_TTL_SECONDS } from "./limits.ts";
import type { Role } from "./permissions.ts";
import type { AdminScope } from "./scope.ts";

/** Whether the link went out by email: `sent`, `failed` (copy it by hand) or `off` (no SMTP_URL). */
export type InvitationEmail = "sent" | "failed" | "off";

/** Sends the link; a failure is logged (without the link: it is the invitation) and reported, not thrown. */
export async function sendInvitation(
  db: Database,
  mailer: Mailer,
  scope: AdminScope,
  invitation: { id: string; email: string; role: Role; link: string },
): Promise<InvitationEmail> {
  try {
    const [workspace, inviter] = await Promise.all([
      db.prisma.workspace.findUniqueOrThrow({ where: { id: scope.workspaceId }, select: { name: true } }),
      db.prisma.user.findUniqueOrThrow({ where: { id: scope.userId }, select: { name: true, email: true } }),
    ]);
    await mailer.send(invitationEmail({ ...invitation, workspaceName: workspace.name, inviter: inviter.name || inviter.email }));
    return "sent";
  } catch (error) {
    // The link itself stays out of the log: it is the invitation.
    logger.warn("invitation email not sent", { invitationId: invitation.id, error: describeError(error) });
    return "failed";
  }
}

/** The invitation as an email: who invites, to which workspace and role, the link and its expiry. */
export function invitationEmail(invitation: {
  email: string;
  role: Role;
  link: string;
  workspaceName: string;
  inviter: string;
}): MailMessage {
  const days = INVITATION_TTL_SECONDS / 86_400;
  return {
    to: invitation.email,
    subject: `${invitation.inviter} invited you to ${invitation.workspaceName} on Parley`,
    text: [
      `${invitation.inviter} invited you to join ${invitation.workspaceName} on Parley as ${ROLE_NAMES[invitation.role]}.`,
      "",
      "Open this link to choose your name and password:",
      invitation.link,
      "",
      `The link works once and expires in ${days} days. If you did not expect this invitation, ignore this email.`,
    ].join("\n"),
  };
}

const ROLE_NAMES: Record<Role, string> = { owner: "an owner", admin: "an admin", editor: "an editor", support: "a support agent" };
