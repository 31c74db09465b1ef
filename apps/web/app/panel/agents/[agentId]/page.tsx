import { roleMay } from "@parley/core/people";
import type { Metadata } from "next";
import { AgentScreen } from "~/panel/agents/AgentScreen.tsx";
import { agentTab } from "~/panel/agents/agent-tabs.ts";
import { itemMetadata } from "~/panel/page-title.ts";
import { segmentId } from "~/panel/params.ts";
import { pageSession } from "~/server/auth.ts";
import "~/panel/agents/agents.css";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ agentId: string }> }): Promise<Metadata> {
  return { title: "Agent", ...(await itemMetadata("agent", (await params).agentId)) };
}

export default async function AgentPage({
  params,
  searchParams,
}: {
  params: Promise<{ agentId: string }>;
  searchParams: Promise<{ tab?: string | string[] }>;
}) {
  const [{ agentId }, { tab }] = await Promise.all([params, searchParams]);
  const admin = await pageSession();
  return (
    <AgentScreen
      agentId={segmentId(agentId)}
      mayDelete={admin !== null && roleMay(admin.role, "agents.delete")}
      initialTab={agentTab(tab)}
    />
  );
}
