// The help centre's own look as its pages show it: the agent's branding (agents/branding.ts) resolved to
// what a visitor sees - the public name, logo, accent and the readable text colour on it, the
// footer link. Only for an agent whose help centre exists (knowledge/visibility.ts's agent rule).
import type { Database } from "@parley/db";
import { helpCentreName, readBranding, textColorOn } from "../agents/branding.ts";

export interface HelpBrand {
  agentId: string;
  /** The help centre's public name (never the agent's internal name). */
  name: string;
  logoUrl: string | null;
  accentColor: string;
  /** White or black: whichever reads on the accent. */
  accentTextColor: string;
  footerLink: { label: string; url: string } | null;
}

/** The brand of agent `agentId`'s help centre, or null when it has none (unknown or inactive agent). */
export async function findHelpBrand(db: Database, agentId: string): Promise<HelpBrand | null> {
  const agent = await db.prisma.agent.findFirst({
    where: { id: agentId, active: true },
    select: { id: true, branding: true, workspace: { select: { name: true } } },
  });
  if (!agent) return null;
  const branding = readBranding(agent.branding);
  return {
    agentId: agent.id,
    name: helpCentreName(branding, agent.workspace.name),
    logoUrl: branding.logoUrl || null,
    accentColor: branding.accentColor,
    accentTextColor: textColorOn(branding.accentColor),
    footerLink: branding.footerLink,
  };
}
