import type { Metadata } from "next";
import { AgentsScreen } from "~/panel/agents/AgentsScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents" };

export default function AgentsPage() {
  return <AgentsScreen />;
}
