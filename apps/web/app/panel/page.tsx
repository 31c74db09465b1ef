import { panelSectionsFor } from "@parley/core/admin";
import { redirect } from "next/navigation";
import { pageSession } from "~/server/auth.ts";

export const dynamic = "force-dynamic";

/** The panel's start page: the first section the person's role opens. */
export default async function PanelHome() {
  const admin = await pageSession();
  if (!admin) redirect("/signin?callbackUrl=%2Fpanel");
  redirect(panelSectionsFor(admin.role)[0]?.path ?? "/panel/account");
}
