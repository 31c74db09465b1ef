"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";

export type TokenPasswordResult =
  | { ok: true; email?: string; message?: string }
  | { ok: false; error: string; fieldErrors: Record<string, string | undefined> };

/**
 * A password chosen through an emailed link (and a name, for a new account), sent with `submit`;
 * on success the person is signed in here with it and taken to the panel.
 */
export function TokenPasswordForm(props: {
  email: string;
  askName?: boolean;
  passwordLabel: string;
  passwordHint: string;
  submitLabel: string;
  pendingLabel: string;
  submit: (fields: { name: string; password: string }) => Promise<TokenPasswordResult>;
}) {
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<TokenPasswordResult | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const name = String(fields.get("name") ?? "");
    const password = String(fields.get("password") ?? "");
    setPending(true);
    try {
      const outcome = await props.submit({ name, password });
      setResult(outcome);
      if (outcome.ok && outcome.email) {
        const signedIn = await signIn("credentials", { email: outcome.email, password, redirect: false });
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
      <TextField label="Email" name="email" type="email" value={props.email} readOnly autoComplete="username" />
      {props.askName ? <TextField label="Your name" name="name" autoComplete="name" error={errors.name} required /> : null}
      <TextField
        label={props.passwordLabel}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={props.passwordHint}
        error={errors.password}
        required
      />
      <p role="alert" className="status-error">
        {result && !result.ok ? result.error : ""}
      </p>
      <p role="status" className="status-success">
        {result?.ok ? result.message : ""}
      </p>
      <ActionButton type="submit" variant="primary" pending={pending} pendingLabel={props.pendingLabel} className="btn-block">
        {props.submitLabel}
      </ActionButton>
    </form>
  );
}
