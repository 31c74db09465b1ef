"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useRef, useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";
import { TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";

/**
 * next-auth reports a refused credentials sign-in as "CredentialsSignin" (never which of email or
 * password was wrong, on purpose); the throttle refuses with its own message (or a 429).
 */
function signInError(error: string | null | undefined, status: number | undefined): string {
  if (status === 429 || (error && /too many|rate limit|throttl/i.test(error))) return "Too many attempts, try again later";
  if (!error || error === "CredentialsSignin") return "Invalid email or password";
  return "Sign-in failed because of a server error. Please try again.";
}

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const passwordRef = useRef<HTMLInputElement>(null);

  // Uncontrolled fields read at submit: what was typed before hydration still counts.
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get("email") ?? "");
    const password = String(fields.get("password") ?? "");
    const empty = {
      ...(email.trim() === "" ? { email: "Enter the email address you sign in with." } : {}),
      ...(password === "" ? { password: "Enter your password." } : {}),
    };
    setMissing(empty);
    if (empty.email || empty.password) {
      setError("");
      return;
    }
    setPending(true);
    setError("");
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (result?.ok && !result.error) {
        // A full load, so the server renders the panel with the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setError(signInError(result?.error, result?.status));
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    if (passwordRef.current) passwordRef.current.value = "";
    setPending(false);
    passwordRef.current?.focus();
  }

  return (
    // method="post": even a submission that bypasses the handler never puts the password in a URL.
    <PanelForm onSubmit={submit} method="post" className="form">
      <TextField label="Email" name="email" type="email" autoComplete="username" required error={missing.email} />
      <TextField
        ref={passwordRef}
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={missing.password}
      />
      <p role="alert" className="status-error">
        {error}
      </p>
      <ActionButton type="submit" variant="primary" pending={pending} pendingLabel="Signing in…" className="btn-block">
        Sign in
      </ActionButton>
    </PanelForm>
  );
}
