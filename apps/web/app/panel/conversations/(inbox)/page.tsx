import type { Metadata } from "next";
import { NoConversationSelected } from "~/panel/conversations/InboxWorkspace.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Conversations" };

/** The workspace with no conversation open: the list (from the layout) and an empty middle. */
export default function ConversationsPage() {
  return <NoConversationSelected />;
}
