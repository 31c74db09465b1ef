"use client";

import { visitorIdentity } from "@parley/core/browser";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { formatDateTime, formatWaited } from "../format.ts";
import { useShortcuts } from "../inbox/shortcuts.ts";
import { useNow } from "../inbox/use-now.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { filtersQuery, hasFilters, type InboxFilters, listInput } from "./filters.ts";
import { RatingBadge } from "./RatingBadge.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

const PAGE_SIZE = 25;
type Item = RouterOutputs["conversations"]["list"]["items"][number];

/** A conversation's address in the workspace, keeping the list's filters beside it. */
export function conversationHref(id: string, filters: InboxFilters): string {
  const query = filtersQuery(filters);
  return `/panel/conversations/${encodeURIComponent(id)}${query ? `?${query}` : ""}`;
}

/** The list; `openId` is the conversation open beside it (marked as the current one). */
export function ConversationList({ filters, openId }: { filters: InboxFilters; openId: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listRef = useRef<HTMLUListElement>(null);
  // Pointing at a row (or moving to it by keyboard) starts loading its conversation, so it opens at once.
  const prefetch = (id: string) => void queryClient.prefetchQuery(trpc.conversations.get.queryOptions({ id }, { staleTime: 10_000 }));
  const now = useNow();
  const conversations = useInfiniteQuery(
    trpc.conversations.list.infiniteQueryOptions(
      { ...listInput(filters), limit: PAGE_SIZE },
      {
        getNextPageParam: (page) => page.nextCursor ?? undefined,
        // The live stream refetches on every change; this slow poll only covers a dropped stream.
        refetchInterval: 60_000,
      },
    ),
  );

  // j / k (and the arrow keys within the list) move through it: focus on the row's link, Enter opens it.
  const move = (step: number) => {
    const links = [...(listRef.current?.querySelectorAll<HTMLAnchorElement>("a.item-title") ?? [])];
    if (links.length === 0) return;
    const focused = links.indexOf(document.activeElement as HTMLAnchorElement);
    // From the focused row, else from the open conversation's, else the first.
    const from = focused === -1 ? links.findIndex((link) => link.getAttribute("aria-current") === "page") : focused;
    const next = from === -1 ? 0 : Math.min(links.length - 1, Math.max(0, from + step));
    links[next]?.focus();
    links[next]?.scrollIntoView({ block: "nearest" });
  };
  useShortcuts({ j: () => move(1), k: () => move(-1) });

  // The open conversation's row stays in sight (a deep link may open one far down the list).
  const items = conversations.data?.pages.flatMap((page) => page.items);
  const openListed = openId !== null && (items?.some((item) => item.id === openId) ?? false);
  useEffect(() => {
    if (openListed) listRef.current?.querySelector('a[aria-current="page"]')?.scrollIntoView({ block: "nearest" });
  }, [openListed]);

  if (conversations.isPending) return <Loading label="Loading conversations…" />;
  if (conversations.isError) return <QueryError error={conversations.error} onRetry={() => conversations.refetch()} />;
  if (!items || items.length === 0) return <EmptyList filters={filters} />;

  return (
    <>
      <ul
        className="item-list inbox-list"
        ref={listRef}
        aria-label="Conversations"
        onKeyDown={(event) => {
          if (event.altKey || event.ctrlKey || event.metaKey) return;
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          event.preventDefault();
          move(event.key === "ArrowDown" ? 1 : -1);
        }}
      >
        {items.map((conversation) => (
          <ConversationRow
            key={conversation.id}
            conversation={conversation}
            now={now}
            href={conversationHref(conversation.id, filters)}
            open={conversation.id === openId}
            onPoint={() => prefetch(conversation.id)}
          />
        ))}
      </ul>
      {conversations.hasNextPage ? (
        <ActionButton onClick={() => conversations.fetchNextPage()} pending={conversations.isFetchingNextPage} pendingLabel="Loading…">
          Load more
        </ActionButton>
      ) : null}
    </>
  );
}

function EmptyList({ filters }: { filters: InboxFilters }) {
  if (filters.q)
    return (
      <EmptyState>
        No conversation matches “{filters.q}”{hasFilters({ ...filters, q: undefined }) ? " with these filters" : ""}.
      </EmptyState>
    );
  if (filters.assignee === "unassigned" && filters.status === "escalated") {
    return <EmptyState>Nobody is waiting for a person. New escalations appear here at once.</EmptyState>;
  }
  if (filters.assignee === "mine") return <EmptyState>No conversations are assigned to you. Take one over to see it here.</EmptyState>;
  return (
    <EmptyState>
      {hasFilters(filters)
        ? "No conversations match these filters."
        : "No conversations yet. They appear here once visitors or integrations talk to an agent."}
    </EmptyState>
  );
}

function ConversationRow({
  conversation,
  now,
  href,
  open,
  onPoint,
}: {
  conversation: Item;
  now: number;
  href: string;
  open: boolean;
  onPoint: () => void;
}) {
  // The visitor waits for a person's reply (assigned or not): the list's order puts them first,
  // the longest wait first, and the row says for how long.
  const waiting = conversation.waitingSince !== null;
  const unassigned = conversation.status === "escalated" && conversation.assignee === null;
  const className = [
    "item",
    "inbox-item",
    waiting ? "item-escalated" : "",
    conversation.status === "resolved" ? "inbox-item-resolved" : "",
    // The visitor wrote since this person last opened it: bold, with a dot named for screen readers.
    conversation.unread ? "inbox-item-unread" : "",
    open ? "inbox-item-open" : "",
  ]
    .filter(Boolean)
    .join(" ");
  // What the visitor asked, else the conversation's last line.
  const preview = conversation.lastVisitorMessage ?? conversation.lastMessage;
  return (
    <li className={className}>
      <div className="item-main">
        <span className="inbox-identity">
          {conversation.unread ? <span className="unread-dot" role="img" aria-label="Unread" title="Unread" /> : null}
          {/* The title shows the whole name where the row cuts it short. */}
          <Link
            href={href}
            className="item-title"
            title={visitorIdentity(conversation)}
            aria-current={open ? "page" : undefined}
            onMouseEnter={onPoint}
            onFocus={onPoint}
          >
            {visitorIdentity(conversation)}
          </Link>
          <StatusBadge status={conversation.status} />
          {conversation.rating ? <RatingBadge rating={conversation.rating.rating} /> : null}
        </span>
        {conversation.waitingSince ? <span className="inbox-waited">Waiting {formatWaited(conversation.waitingSince, now)}</span> : null}
      </div>
      {preview ? (
        <p className="item-excerpt">
          {preview.role === "user" ? null : <span className="muted">{preview.role === "agent" ? "Agent" : "Team"}: </span>}
          {preview.text}
        </p>
      ) : null}
      <p className="item-meta muted">
        {conversation.assignee ? `${conversation.assignee.name} · ` : unassigned ? "Unassigned · " : ""}
        {conversation.agentName} · {conversation.channel === "widget" ? "Widget" : "API"} · {conversation.messageCount}{" "}
        {conversation.messageCount === 1 ? "message" : "messages"} · updated {formatDateTime(conversation.updatedAt)}
      </p>
    </li>
  );
}
