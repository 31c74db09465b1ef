"use client";

import { completePasswordResetAction } from "./password-reset-actions.ts";
import { TokenPasswordForm } from "./TokenPasswordForm.tsx";

/** A new password through a reset link; on success the person is signed in here and taken to the panel. */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  return (
    <TokenPasswordForm
      email={email}
      passwordLabel="New password"
      passwordHint="At least 8 characters. You will be signed out everywhere else."
      submitLabel="Set new password and sign in"
      pendingLabel="Saving…"
      submit={({ password }) => completePasswordResetAction({ token, password })}
    />
  );
}
