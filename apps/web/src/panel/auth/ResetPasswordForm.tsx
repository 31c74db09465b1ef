"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { completePasswordResetAction, type PasswordResetResult } from "./password-reset-actions.ts";

/** A new password through a reset link; on success the person is signed in here and taken to the panel. */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<PasswordResetResult | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setPending(true);
    try {
      const reset = await completePasswordResetAction({ token, password });
      setResult(reset);
      if (reset.ok && reset.email) {
        const signedIn = await signIn("credentials", { email: reset.email, password, redirect: false });
        window.location.assign(signedIn?.ok && !signedIn.error ? "/panel" : "/signin");
        return;
      }
    } catch {
      setResult({ ok: false, error: "Something went wrong on the server. Please try again.", fieldErrors: {} });
    }
    setPending(false);
  }

  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <form onSubmit={submit} method="post" className="form" noValidate>
      <TextField label="Email" name="email" type="email" value={email} readOnly autoComplete="username" />
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters. You will be signed out everywhere else."
        error={errors.password}
        required
      />
      <p role="alert" className="status-error">
        {result && !result.ok ? result.error : ""}
      </p>
      <p role="status" className="status-success">
        {result?.ok ? result.message : ""}
      </p>
      <ActionButton type="submit" variant="primary" pending={pending} pendingLabel="Saving…" className="btn-block">
        Set new password and sign in
      </ActionButton>
    </form>
  );
}
