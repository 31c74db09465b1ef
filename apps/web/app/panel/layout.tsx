import { PANEL_SECTIONS, panelSectionsFor, permissionsOf, roleMay } from "@parley/core/people";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { Session } from "next-auth";
import type { ReactNode } from "react";
import { PermissionsProvider } from "~/panel/access/permissions.tsx";
import { SectionGate } from "~/panel/access/SectionGate.tsx";
import { Providers } from "~/panel/Providers.tsx";
import { PANEL_TITLE_TEMPLATE } from "~/panel/tab-title.ts";
import { PanelNav } from "~/panel/ui/PanelNav.tsx";
import { pageSession } from "~/server/auth.ts";
import "./panel.css";
import "~/panel/ui/small-screens.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: { default: "Control panel", template: PANEL_TITLE_TEMPLATE }, robots: { index: false } };

/**
 * Every panel page needs a live session; the check (in the database) runs on the server before
 * anything renders. The navigation and the pages follow the person's role (core's table); each
 * tRPC procedure checks again (the layout is not re-run on client-side navigation).
 */
export default async function PanelLayout({ children }: { children: ReactNode }) {
  const admin = await pageSession();
  if (!admin) redirect("/signin?callbackUrl=%2Fpanel");
  const session: Session = {
    user: { id: admin.userId, workspaceId: admin.workspaceId, email: admin.email, name: admin.name },
    expires: admin.expiresAt.toISOString(),
  };
  const sections = panelSectionsFor(admin.role);
  // The home (app/panel/page.tsx) for the roles it serves; else the role's first section.
  const hasHome = roleMay(admin.role, "home.read");
  const home = hasHome ? "/panel" : (sections[0]?.path ?? "/panel/account");
  const nav = [
    ...(hasHome ? [{ href: "/panel", label: "Home" }] : []),
    ...sections.filter((section) => !("nav" in section)).map((section) => ({ href: section.path, label: section.label })),
  ];
  return (
    <Providers session={session}>
      <PermissionsProvider permissions={permissionsOf(admin.role)}>
        <div className="panel">
          <a className="skip-link" href="#panel-main">
            Skip to content
          </a>
          <PanelNav email={session.user?.email ?? null} sections={nav} home={home} />
          <main id="panel-main" className="panel-main">
            <SectionGate allowed={sections.map((section) => section.path)} all={PANEL_SECTIONS.map((section) => section.path)} home={home}>
              {children}
            </SectionGate>
          </main>
        </div>
      </PermissionsProvider>
    </Providers>
  );
}
