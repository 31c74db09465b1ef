// The agent page's tabs, in order, and their `?tab=` values (a reload or a shared link keeps the tab).

export const AGENT_TABS = [
  { id: "general", label: "General" },
  { id: "answers", label: "Answers" },
  { id: "look", label: "Widget & look" },
  { id: "channels", label: "Channels" },
  { id: "limits", label: "Limits" },
  { id: "api-key", label: "API key" },
  { id: "danger", label: "Danger zone" },
] as const;

export type AgentTab = (typeof AGENT_TABS)[number]["id"];

/** The tab a `?tab=` value names; anything else opens General. */
export function agentTab(value: string | string[] | undefined | null): AgentTab {
  const wanted = Array.isArray(value) ? value[0] : value;
  return AGENT_TABS.find((tab) => tab.id === wanted)?.id ?? "general";
}

/** The agent page opened on a tab. */
export function agentTabPath(agentId: string, tab: AgentTab): string {
  const path = `/panel/agents/${encodeURIComponent(agentId)}`;
  return tab === "general" ? path : `${path}?tab=${tab}`;
}
