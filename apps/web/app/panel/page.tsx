import { panelSectionsFor, roleMay } from "@parley/core/people";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { HomeScreen } from "~/panel/home/HomeScreen.tsx";
import { pageSession } from "~/server/auth.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Home" };

/** The panel's home for those whose role opens it; anyone else starts on their role's first section. */
export default async function PanelHomePage() {
  const admin = await pageSession();
  if (!admin) redirect("/signin?callbackUrl=%2Fpanel");
  if (!roleMay(admin.role, "home.read")) redirect(panelSectionsFor(admin.role)[0]?.path ?? "/panel/account");
  return <HomeScreen />;
}
