import { roleMay } from "@parley/core/people";
import type { Metadata } from "next";
import { AgentScreen } from "~/panel/agents/AgentScreen.tsx";
import { segmentId } from "~/panel/params.ts";
import { pageSession } from "~/server/auth.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agent" };

export default async function AgentPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  const admin = await pageSession();
  return <AgentScreen agentId={segmentId(agentId)} mayDelete={admin !== null && roleMay(admin.role, "agents.delete")} />;
}
