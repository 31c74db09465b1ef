import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "~/panel/auth/callback-url.ts";
import { SignInForm } from "~/panel/auth/SignInForm.tsx";
import { pageSession } from "~/server/auth.ts";
import { getAppContext, publicAppUrl } from "~/server/context.ts";
import "../panel/panel.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { callbackUrl } = await searchParams;
  const target = safeCallbackUrl(callbackUrl, publicAppUrl());
  if (await pageSession()) redirect(target);
  // A reset link goes out by email: without SMTP there is no "Forgot password?".
  const canReset = (await getAppContext()).mailer !== undefined;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="panel-brand">Parley</p>
        <h1>Sign in</h1>
        <p className="muted">Sign in to the control panel.</p>
        <SignInForm callbackUrl={target} />
        {canReset ? (
          <p className="auth-links">
            <Link href="/forgot-password">Forgot password?</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
