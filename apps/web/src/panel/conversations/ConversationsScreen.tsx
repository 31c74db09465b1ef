"use client";

import Link from "next/link";
import { GuardedDownloads } from "../access/GuardedDownload.tsx";
import { ConversationFilters } from "./ConversationFilters.tsx";
import { ConversationList } from "./ConversationList.tsx";
import { exportUrl, hasFilters, type InboxFilters } from "./filters.ts";

/**
 * The workspace's left column: search, filters (behind a button), the list. While a conversation
 * is open its name is the page's main heading, so the list's heading steps down a level.
 */
export function ConversationsScreen({ filters, openId }: { filters: InboxFilters; openId: string | null }) {
  const Heading = openId ? "h2" : "h1";
  return (
    <div className="inbox-list-pane">
      <div className="inbox-list-header">
        <Heading className="inbox-list-title">Conversations</Heading>
        <div className="inbox-list-links">
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
      <ConversationFilters filters={filters} />
      <div className="inbox-list-scroll">
        <ConversationList filters={filters} openId={openId} />
      </div>
      <p className="shortcuts">
        <kbd>/</kbd> search · <kbd>j</kbd> <kbd>k</kbd> or <kbd>↓</kbd> <kbd>↑</kbd> move · <kbd>Enter</kbd> open
      </p>
    </div>
  );
}
