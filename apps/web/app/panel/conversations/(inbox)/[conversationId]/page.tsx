import { roleMay } from "@parley/core/people";
import type { Metadata } from "next";
import { ConversationScreen } from "~/panel/conversations/ConversationScreen.tsx";
import { segmentId } from "~/panel/params.ts";
import { pageSession } from "~/server/auth.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Conversation" };

export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  const { conversationId } = await params;
  const admin = await pageSession();
  const mayManageVisitorData = admin !== null && roleMay(admin.role, "visitorData.manage");
  return <ConversationScreen conversationId={segmentId(conversationId)} mayManageVisitorData={mayManageVisitorData} />;
}
