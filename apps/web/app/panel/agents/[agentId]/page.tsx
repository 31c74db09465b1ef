import type { Metadata } from "next";
import { AgentScreen } from "~/panel/agents/AgentScreen.tsx";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agent" };

export default async function AgentPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  return <AgentScreen agentId={segmentId(agentId)} />;
}
