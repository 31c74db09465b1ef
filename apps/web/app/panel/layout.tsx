import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { Session } from "next-auth";
import type { ReactNode } from "react";
import { Providers } from "~/panel/Providers.tsx";
import { PanelNav } from "~/panel/ui/PanelNav.tsx";
import { pageSession } from "~/server/auth.ts";
import "./panel.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: { default: "Control panel", template: "%s · Parley panel" }, robots: { index: false } };

/**
 * Every panel page needs a live session; the check (in the database) runs on the server before
 * anything renders. (Each tRPC procedure checks again: the layout is not re-run on client-side
 * navigation.)
 */
export default async function PanelLayout({ children }: { children: ReactNode }) {
  const admin = await pageSession();
  if (!admin) redirect("/signin?callbackUrl=%2Fpanel");
  const session: Session = {
    user: { id: admin.userId, workspaceId: admin.workspaceId, email: admin.email, name: admin.name },
    expires: admin.expiresAt.toISOString(),
  };
  return (
    <Providers session={session}>
      <div className="panel">
        <a className="skip-link" href="#panel-main">
          Skip to content
        </a>
        <PanelNav email={session.user?.email ?? null} />
        <main id="panel-main" className="panel-main">
          {children}
        </main>
      </div>
    </Providers>
  );
}
