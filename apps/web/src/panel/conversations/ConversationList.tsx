"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatDateTime } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import type { StatusFilter } from "./ConversationsScreen.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

const PAGE_SIZE = 25;
const lastMessageAuthor: Record<string, string> = { user: "Visitor", agent: "Agent", human: "You" };

export function ConversationList({ agentId, status }: { agentId?: string; status?: StatusFilter }) {
  const trpc = useTRPC();
  const conversations = useInfiniteQuery(
    trpc.conversations.list.infiniteQueryOptions(
      { agentId, status, limit: PAGE_SIZE },
      {
        getNextPageParam: (page) => page.nextCursor ?? undefined,
        // New turns arrive while the admin watches; escalations should show up without a reload.
        refetchInterval: 15_000,
      },
    ),
  );

  if (conversations.isPending) return <Loading label="Loading conversations…" />;
  if (conversations.isError) return <QueryError error={conversations.error} onRetry={() => conversations.refetch()} />;
  const items = conversations.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return (
      <EmptyState>
        {agentId || status
          ? "No conversations match these filters."
          : "No conversations yet. They appear here once visitors or integrations talk to an agent."}
      </EmptyState>
    );
  }

  return (
    <>
      <ul className="item-list">
        {items.map((conversation) => {
          const visitor = conversation.visitorName || conversation.visitorEmail || "Anonymous visitor";
          return (
            <li key={conversation.id} className={conversation.status === "escalated" ? "item item-escalated" : "item"}>
              <div className="item-main">
                <Link href={`/panel/conversations/${encodeURIComponent(conversation.id)}`} className="item-title">
                  {visitor}
                </Link>
                <StatusBadge status={conversation.status} />
              </div>
              {conversation.lastMessage ? (
                <p className="item-excerpt">
                  <span className="muted">{lastMessageAuthor[conversation.lastMessage.role] ?? conversation.lastMessage.role}:</span>{" "}
                  {conversation.lastMessage.text}
                </p>
              ) : null}
              <p className="item-meta muted">
                {conversation.agentName} · {conversation.channel === "widget" ? "Widget" : "API"} · {conversation.messageCount}{" "}
                {conversation.messageCount === 1 ? "message" : "messages"} · updated {formatDateTime(conversation.updatedAt)}
              </p>
            </li>
          );
        })}
      </ul>
      {conversations.hasNextPage ? (
        <ActionButton onClick={() => conversations.fetchNextPage()} pending={conversations.isFetchingNextPage} pendingLabel="Loading…">
          Load more
        </ActionButton>
      ) : null}
    </>
  );
}
