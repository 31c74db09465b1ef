"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { type AcceptInvitationResult, acceptInvitationAction } from "./accept-invitation-action.ts";

/** Name and password for a new account; on success the person is signed in and taken to the panel. */
export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<AcceptInvitationResult | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const name = String(fields.get("name") ?? "");
    const password = String(fields.get("password") ?? "");
    setPending(true);
    try {
      const accepted = await acceptInvitationAction({ token, name, password });
      setResult(accepted);
      if (accepted.ok) {
        const signedIn = await signIn("credentials", { email: accepted.email, password, redirect: false });
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
      <TextField label="Your name" name="name" autoComplete="name" error={errors.name} required />
      <TextField
        label="Choose a password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        error={errors.password}
        required
      />
      <p role="alert" className="status-error">
        {result && !result.ok ? result.error : ""}
      </p>
      <ActionButton type="submit" variant="primary" pending={pending} pendingLabel="Creating your account…" className="btn-block">
        Create account and sign in
      </ActionButton>
    </form>
  );
}
