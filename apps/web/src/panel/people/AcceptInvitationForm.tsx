"use client";

import { TokenPasswordForm } from "../auth/TokenPasswordForm.tsx";
import { acceptInvitationAction } from "./accept-invitation-action.ts";

/** Name and password for a new account; on success the person is signed in and taken to the panel. */
export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  return (
    <TokenPasswordForm
      email={email}
      askName
      passwordLabel="Choose a password"
      passwordHint="At least 8 characters."
      submitLabel="Create account and sign in"
      pendingLabel="Creating your account…"
      submit={({ name, password }) => acceptInvitationAction({ token, name, password })}
    />
  );
}
