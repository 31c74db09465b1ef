"use client";

import { ConversationFilters } from "./ConversationFilters.tsx";
import { ConversationList } from "./ConversationList.tsx";

export type StatusFilter = "active" | "escalated";

export function ConversationsScreen({ agentId, status }: { agentId?: string; status?: StatusFilter }) {
  return (
    <>
      <div className="page-heading">
        <h1>Conversations</h1>
      </div>
      <ConversationFilters agentId={agentId} status={status} />
      <ConversationList agentId={agentId} status={status} />
    </>
  );
}
