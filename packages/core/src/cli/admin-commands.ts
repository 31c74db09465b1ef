// The operator's commands (`npm run admin -- <command> ...`), as a function of the arguments that
// returns what to print, so the command line file stays a thin frame.
import type { Database } from "@parley/db";
import { resetPassword } from "../people/account.ts";
import { isAppError } from "../platform/errors.ts";

export const ADMIN_USAGE = "Usage: npm run admin -- reset-password EMAIL";

/** Runs one command; throws an Error whose message is the one line to print when it fails. */
export async function runAdminCommand(db: Database, args: readonly string[], now: Date): Promise<string[]> {
  const [command, email, ...rest] = args;
  if (command !== "reset-password" || !email || rest.length > 0) throw new Error(ADMIN_USAGE);
  try {
    const reset = await resetPassword(db, email, now);
    return [
      `New password for ${reset.email}: ${reset.generatedPassword}`,
      "It is shown only this once; sign in with it, then change it on the Account page.",
      `${reset.endedSessions === 1 ? "1 session" : `${reset.endedSessions} sessions`} of this person ended.`,
    ];
  } catch (error) {
    if (isAppError(error) && error.code === "TEAM_MEMBER_NOT_FOUND") throw new Error(`No person has the email address ${email}`);
    throw error;
  }
}
