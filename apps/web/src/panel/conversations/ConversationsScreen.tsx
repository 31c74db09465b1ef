"use client";

import Link from "next/link";
import { ConversationFilters } from "./ConversationFilters.tsx";
import { ConversationList } from "./ConversationList.tsx";
import { exportUrl, hasFilters, type InboxFilters } from "./filters.ts";
import { InboxAlerts } from "./InboxAlerts.tsx";

export function ConversationsScreen({ filters }: { filters: InboxFilters }) {
  return (
    <>
      <div className="page-heading">
        <h1>Conversations</h1>
        <div className="page-actions">
          <Link href="/panel/conversations/saved-replies">Saved replies</Link>
          <span className="muted">Export {hasFilters(filters) ? "these" : "all"}:</span>
          {/* Plain downloads: the browser saves the streamed file as it arrives. */}
          <a href={exportUrl(filters, "csv")} download>
            CSV
          </a>
          <a href={exportUrl(filters, "json")} download>
            JSON
          </a>
        </div>
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
