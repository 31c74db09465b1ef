"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { ActionButton } from "../ui/buttons.tsx";

export function SignOutForm() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  return (
    <div className="form">
      <p>You will need your password to sign in again.</p>
      <p role="alert" className="status-error">
        {error}
      </p>
      <div className="button-row">
        <ActionButton
          variant="primary"
          pending={pending}
          pendingLabel="Signing out…"
          onClick={async () => {
            setPending(true);
            setError("");
            try {
              await signOut({ callbackUrl: "/signin" });
            } catch {
              setError("Could not sign out. Check your connection and try again.");
              setPending(false);
            }
          }}
        >
          Sign out
        </ActionButton>
        <Link href="/panel" className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </div>
  );
}
