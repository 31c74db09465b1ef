import type { Metadata } from "next";
import Link from "next/link";
import { SignOutForm } from "~/panel/auth/SignOutForm.tsx";
import { pageSession } from "~/server/auth.ts";
import "../panel/panel.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign out", robots: { index: false } };

export default async function SignOutPage() {
  const session = await pageSession();
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        <h1>Sign out</h1>
        {session ? (
          <SignOutForm />
        ) : (
          <p>
            You are signed out. <Link href="/signin">Sign in</Link>
          </p>
        )}
      </div>
    </main>
  );
}
