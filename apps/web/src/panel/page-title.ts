// The <title> of a panel item page: its name and section (core's panelItemTitle), read on the server.
import { type PanelItemKind, panelItemTitle } from "@parley/core/people";
import type { Metadata } from "next";
import { pageSession } from "~/server/auth.ts";
import { getAppContext } from "~/server/context.ts";
import { segmentId } from "./params.ts";

export async function itemMetadata(kind: PanelItemKind, segment: string): Promise<Metadata> {
  const [admin, ctx] = await Promise.all([pageSession(), getAppContext()]);
  if (!admin) return {};
  return { title: await panelItemTitle(ctx.db, admin, kind, segmentId(segment)) };
}
