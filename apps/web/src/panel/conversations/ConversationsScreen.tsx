"use client";

import Link from "next/link";
import { GuardedDownloads } from "../access/GuardedDownload.tsx";
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
          {/* Downloads (the browser saves the streamed file as it arrives), for the roles that may export. */}
          <GuardedDownloads
            permission="inbox.export"
            label={<span className="muted">Export {hasFilters(filters) ? "these" : "all"}:</span>}
            links={[
              { href: exportUrl(filters, "csv"), label: "CSV" },
              { href: exportUrl(filters, "json"), label: "JSON" },
            ]}
          />
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
