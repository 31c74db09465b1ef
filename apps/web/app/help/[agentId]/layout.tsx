// Every page of one help centre: an unknown or inactive agent is the plain help 404 (../not-found);
// otherwise the brand goes down to this help centre's own 404 page (./not-found).
import type { ReactNode } from "react";
import { loadHelpAgent } from "~/help/data.ts";
import { HelpBrandProvider } from "~/help/HelpBrandContext.tsx";

export default async function HelpAgentLayout(props: { children: ReactNode; params: Promise<{ agentId: string }> }) {
  const { agentId } = await props.params;
  const brand = await loadHelpAgent(agentId);
  return <HelpBrandProvider brand={brand}>{props.children}</HelpBrandProvider>;
}
