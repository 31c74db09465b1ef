// Browser tab titles of the panel's item pages: the item's name and its section ("Support bot ·
// Agents"), so several open tabs tell apart. A name is read only within the person's workspace and
// only when their role may open that section; otherwise the page keeps its generic title.
import type { Database } from "@parley/db";
import type { Permission } from "./permissions.ts";
import { roleMay } from "./permissions.ts";
import type { AdminScope } from "./scope.ts";

export type PanelItemKind = "agent" | "article" | "source" | "webhook";

const ITEM_SECTIONS: Record<PanelItemKind, { section: string; permission: Permission; fallback: string }> = {
  agent: { section: "Agents", permission: "agents.read", fallback: "Agent" },
  article: { section: "Knowledge", permission: "knowledge.read", fallback: "Article" },
  source: { section: "Knowledge", permission: "knowledge.read", fallback: "Source" },
  webhook: { section: "Webhooks", permission: "webhooks.manage", fallback: "Webhook endpoint" },
};

/** "<name> · <section>", or the page's generic title when the item is not the person's to see. */
export async function panelItemTitle(
  db: Database,
  scope: Pick<AdminScope, "workspaceId" | "role">,
  kind: PanelItemKind,
  id: string,
): Promise<string> {
  const { section, permission, fallback } = ITEM_SECTIONS[kind];
  if (!roleMay(scope.role, permission)) return fallback;
  const name = await itemName(db, scope.workspaceId, kind, id);
  const trimmed = name?.trim();
  return trimmed ? `${trimmed} · ${section}` : fallback;
}

async function itemName(db: Database, workspaceId: string, kind: PanelItemKind, id: string): Promise<string | null> {
  switch (kind) {
    case "agent":
      return (await db.prisma.agent.findFirst({ where: { id, workspaceId }, select: { name: true } }))?.name ?? null;
    case "article":
      return (await db.prisma.article.findFirst({ where: { id, source: { workspaceId } }, select: { title: true } }))?.title ?? null;
    case "source":
      return (await db.prisma.source.findFirst({ where: { id, workspaceId }, select: { name: true } }))?.name ?? null;
    case "webhook":
      return (await db.prisma.webhookEndpoint.findFirst({ where: { id, workspaceId }, select: { url: true } }))?.url ?? null;
  }
}
