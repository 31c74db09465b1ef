// Whether an agent's widget has run on the business's own site: the getting-started checklist's
// "Embed the chat widget" step. The help centre on this server runs the widget too (when the agent
// allows the app's origin), so a connection from this server's own origin does not count.
import type { Database } from "@parley/db";

/** True when the page's origin is an allowed site other than this server's own pages. */
export function isAnotherSite(origin: string, appUrl: string): boolean {
  return origin.toLowerCase() !== new URL(appUrl).origin;
}

/**
 * Records the first connection from another site (its time and origin), once per agent: later
 * connections leave the first one in place. `origin` is an allowed origin (checked before).
 */
export async function recordWidgetSite(
  db: Database,
  agent: { id: string; widgetSiteSeenAt: Date | null },
  origin: string,
  appUrl: string,
  now: Date,
): Promise<boolean> {
  if (agent.widgetSiteSeenAt !== null || !isAnotherSite(origin, appUrl)) return false;
  const { count } = await db.prisma.agent.updateMany({
    where: { id: agent.id, widgetSiteSeenAt: null },
    data: { widgetSiteSeenAt: now, widgetSiteOrigin: origin.toLowerCase() },
  });
  return count === 1;
}
