// The errors people/ throws: their responses and documentation (error-table.ts assembles the public table).
import { defineErrors } from "../platform/errors.ts";

export const PEOPLE_ERRORS = defineErrors({
  AGENT_NOT_FOUND: {
    status: 404,
    message: "Agent not found",
    trpc: "NOT_FOUND",
    meaning: "Unknown agent, an inactive agent, or (key routes) an agent outside your workspace.",
    action: "Check the agent id in the URL and that the agent is active.",
  },
  SOURCE_NOT_FOUND: {
    status: 404,
    message: "Source not found",
    trpc: "NOT_FOUND",
    meaning: "The knowledge-base source is not one of your workspace's, or was deleted.",
    action: "Reload the list of sources and pick one that exists.",
  },
  TEAM_MEMBER_NOT_FOUND: {
    status: 404,
    message: "Team member not found",
    trpc: "NOT_FOUND",
    meaning: "The person named is not a team member of this workspace (an assignee that does not exist, or left).",
    action: "Reload the list of team members and choose one of them.",
  },
  INVITATION_NOT_VALID: {
    status: 404,
    message: "This invitation link is not valid: it may have expired or been used already. Ask for a new invitation.",
    trpc: "NOT_FOUND",
    meaning: "The invitation link is unknown, expired (after 7 days), withdrawn or already used.",
    action: "Ask an owner of the workspace for a new invitation.",
  },
  LAST_OWNER: {
    status: 409,
    message: "The workspace needs at least one active owner. Make someone else an owner first.",
    trpc: "CONFLICT",
    meaning: "The change would leave the workspace without an active owner.",
    action: "Make another person an owner first, then change this one.",
  },
  PERSON_EXISTS: {
    status: 409,
    message: "A person with this email address already has an account",
    trpc: "CONFLICT",
    meaning:
      "A person with this email address already has an account: in this workspace when inviting, or anywhere when accepting an invitation.",
    action:
      "Inviting: reactivate that person if they were deactivated, or invite another address. Accepting: sign in with the account you have.",
  },
  WRONG_CURRENT_PASSWORD: {
    status: 400,
    message: "The current password is not correct",
    trpc: "BAD_REQUEST",
    meaning: "The current password given to change the password is not the person's password.",
    action: "Enter the current password as you sign in with it.",
  },
  PASSWORD_RESET_NOT_VALID: {
    status: 404,
    message: "This password reset link is not valid: it may have expired or been used already. Ask for a new link from the sign-in page.",
    trpc: "NOT_FOUND",
    meaning: "The reset link is unknown, expired (after 60 minutes), already used, or its person was deactivated.",
    action: "Use “Forgot password?” on the sign-in page again for a new link.",
  },
  PASSWORD_RESET_OFF: {
    status: 404,
    message: "Password reset by email is not available on this server. Ask an owner of the workspace to reset your password.",
    trpc: "NOT_FOUND",
    meaning: "The server sends no email (no SMTP_URL), so it cannot send a reset link.",
    action: "Ask an owner; an operator can reset a password with `npm run admin`.",
  },
  PASSWORD_RESET_THROTTLED: {
    status: 429,
    message: "Too many password reset requests. Try again later.",
    trpc: "TOO_MANY_REQUESTS",
    meaning: "Too many reset links asked for from this address, or for this email, within a short time.",
    action: "Wait the `Retry-After` seconds, then ask again (or check the email already sent).",
  },
  SIGN_IN_THROTTLED: {
    status: 429,
    message: "Too many failed sign-ins. Try again later.",
    trpc: "TOO_MANY_REQUESTS",
    meaning: "Too many failed sign-ins for this account or from this address within a short time.",
    action: "Wait the `Retry-After` seconds, then sign in with the right password.",
  },
});
