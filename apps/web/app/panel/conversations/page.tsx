import type { Metadata } from "next";
import { ConversationsScreen } from "~/panel/conversations/ConversationsScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Conversations" };

export default async function ConversationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { agent, status } = await searchParams;
  return (
    <ConversationsScreen
      agentId={typeof agent === "string" && agent ? agent : undefined}
      status={status === "active" || status === "escalated" ? status : undefined}
    />
  );
}
