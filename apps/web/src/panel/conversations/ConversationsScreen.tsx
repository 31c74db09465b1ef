"use client";

import { ConversationFilters } from "./ConversationFilters.tsx";
import { ConversationList } from "./ConversationList.tsx";
import type { InboxFilters } from "./filters.ts";
import { InboxAlerts } from "./InboxAlerts.tsx";

export function ConversationsScreen({ filters }: { filters: InboxFilters }) {
  return (
    <>
      <div className="page-heading">
        <h1>Conversations</h1>
      </div>
      <div className="toolbar">
        <ConversationFilters filters={filters} />
        <InboxAlerts />
      </div>
      <ConversationList filters={filters} />
      <p className="shortcuts">
        <kbd>/</kbd> search · <kbd>j</kbd> / <kbd>k</kbd> next / previous conversation · <kbd>Enter</kbd> open
      </p>
    </>
  );
}
