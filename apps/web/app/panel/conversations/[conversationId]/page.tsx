import type { Metadata } from "next";
import { ConversationScreen } from "~/panel/conversations/ConversationScreen.tsx";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Conversation" };

export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  const { conversationId } = await params;
  return <ConversationScreen conversationId={segmentId(conversationId)} />;
}
