"use client";

import { type FormEvent, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { type PasswordResetResult, requestPasswordResetAction } from "./password-reset-actions.ts";

/** Asks for a reset link by email; says the same thing whether or not the address has an account. */
export function ForgotPasswordForm() {
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<PasswordResetResult | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setPending(true);
    try {
      setResult(await requestPasswordResetAction({ email }));
    } catch {
      setResult({ ok: false, error: "Something went wrong on the server. Please try again.", fieldErrors: {} });
    }
    setPending(false);
  }

  if (result?.ok) {
    return (
      <p role="status" className="status-success">
        {result.message}
      </p>
    );
  }
  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <form onSubmit={submit} method="post" className="form" noValidate>
      <TextField label="Email" name="email" type="email" autoComplete="username" error={errors.email} required />
      <p role="alert" className="status-error">
        {result && !result.ok ? result.error : ""}
      </p>
      <ActionButton type="submit" variant="primary" pending={pending} pendingLabel="Sending…" className="btn-block">
        Email me a reset link
      </ActionButton>
    </form>
  );
}
