import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ForgotPasswordForm } from "~/panel/auth/ForgotPasswordForm.tsx";
import { getAppContext } from "~/server/context.ts";
import "../panel/panel.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

/** "Forgot password?": only where the server sends email (SMTP_URL); elsewhere there is no such page. */
export default async function ForgotPasswordPage() {
  if (!(await getAppContext()).mailer) notFound();
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        <h1>Forgot password</h1>
        <p className="muted">Enter the email address you sign in with. We will email you a link to choose a new password.</p>
        <ForgotPasswordForm />
        <p className="auth-links">
          <Link href="/signin">Back to sign-in</Link>
        </p>
      </div>
    </main>
  );
}
