"use client";

import { visitorIdentity } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useLayoutEffect, useRef, useState } from "react";
import { isNotFound } from "../errors.ts";
import { formatDateTime } from "../format.ts";
import { useMarkRead } from "../inbox/attention.tsx";
import { useNow } from "../inbox/use-now.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { usePanelTabTitle } from "../ui/use-tab-title.ts";
import { filtersQuery, parseFilters } from "./filters.ts";
import { ConversationActions, HandlingCard, handlingText, useConversationHandling } from "./HandlingPanel.tsx";
import { RatingBadge } from "./RatingBadge.tsx";
import { RatingCard } from "./RatingCard.tsx";
import { ReplyComposer } from "./ReplyComposer.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import { Transcript } from "./Transcript.tsx";
import { VisitorCard } from "./VisitorCard.tsx";
import { VisitorDataCard } from "./VisitorDataCard.tsx";

type Conversation = RouterOutputs["conversations"]["get"];

/**
 * The open conversation in the workspace: its header (who, status, take over / resolve), the
 * transcript, the composer pinned under it, and the visitor and handling details beside it (behind
 * "Info" where the screen is too narrow for them). `mayManageVisitorData`: the person may export
 * and erase the visitor's data (owners and admins).
 */
export function ConversationScreen({ conversationId, mayManageVisitorData }: { conversationId: string; mayManageVisitorData: boolean }) {
  const trpc = useTRPC();
  // The live stream refetches it on every change; the slow poll only covers a dropped stream.
  const conversation = useQuery(trpc.conversations.get.queryOptions({ id: conversationId }, { refetchInterval: 60_000 }));
  // Open is read: the person's unread marker and Mine count clear, until the visitor writes again.
  const lastVisitorMessage = conversation.data?.messages.findLast((message) => message.role === "user");
  useMarkRead(conversationId, conversation.data ? (lastVisitorMessage ? String(lastVisitorMessage.createdAt) : null) : undefined);

  if (conversation.isPending)
    return (
      <div className="conversation-none">
        <BackToList />
        <Loading label="Loading conversation…" />
      </div>
    );
  if (conversation.isError) {
    return (
      <div className="conversation-none">
        <BackToList />
        {isNotFound(conversation.error) ? (
          <EmptyState>Conversation not found.</EmptyState>
        ) : (
          <QueryError error={conversation.error} onRetry={() => conversation.refetch()} />
        )}
      </div>
    );
  }
  // Keyed by the conversation: what was typed, the status line and the scroll belong to one conversation.
  return <OpenConversation key={conversation.data.id} data={conversation.data} mayManageVisitorData={mayManageVisitorData} />;
}

/** Back to the list, with its filters (the only way back on a phone, where the list is its own screen). */
function BackToList() {
  const query = filtersQuery(parseFilters(Object.fromEntries(useSearchParams().entries())));
  return (
    <p className="conversation-back">
      <Link href={`/panel/conversations${query ? `?${query}` : ""}`}>← Conversations</Link>
    </p>
  );
}

function OpenConversation({ data, mayManageVisitorData }: { data: Conversation; mayManageVisitorData: boolean }) {
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const handling = useConversationHandling(data, composerRef);
  const now = useNow();
  const [infoOpen, setInfoOpen] = useState(false);
  const transcriptRef = useTranscriptScroll(data);
  // The tab names who and which agent, from the live data (it changes when the visitor gives a name).
  usePanelTabTitle(`${visitorIdentity(data)} · ${data.agentName}`);

  return (
    <section
      className={infoOpen ? "conversation-screen conversation-info-open" : "conversation-screen"}
      aria-labelledby="conversation-title"
    >
      <header className="conversation-header">
        <BackToList />
        <div className="conversation-title-row">
          <h1 id="conversation-title">{visitorIdentity(data)}</h1>
          <span className="badges">
            <StatusBadge status={data.status} />
            {data.rating ? <RatingBadge rating={data.rating.rating} /> : null}
          </span>
          <button
            type="button"
            className="btn conversation-info-toggle"
            aria-expanded={infoOpen}
            aria-controls="conversation-info"
            onClick={() => setInfoOpen((open) => !open)}
          >
            Info
          </button>
          <div className="conversation-toolbar">
            <ConversationActions conversation={data} handling={handling} />
          </div>
        </div>
        <p className="handling-state">{handlingText(data, handling.myId, now)}</p>
      </header>
      {/* Scrolls on its own beside the list; focusable so the keyboard can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1). */}
      <section aria-labelledby="transcript-heading" className="conversation-transcript" ref={transcriptRef} tabIndex={0}>
        <h2 id="transcript-heading" className="visually-hidden">
          Transcript
        </h2>
        {data.erasedAt ? (
          <p className="erased-banner" role="status">
            The visitor's data was erased {formatDateTime(data.erasedAt)}. The messages are kept without their text, so counts and usage
            stay right.
          </p>
        ) : null}
        <Transcript
          erased={data.erasedAt !== null}
          messages={data.messages}
          events={data.trackingEvents}
          activity={data.activity}
          notes={data.notes}
        />
      </section>
      <section aria-label="Reply" className="conversation-composer">
        <ReplyComposer
          conversationId={data.id}
          isMine={handling.isMine}
          textRef={composerRef}
          onSent={handling.refresh}
          onStatus={handling.onComposed}
        />
        <ActionStatus error={handling.status.error} success={handling.status.success} />
      </section>
      <div id="conversation-info" className="conversation-info">
        <HandlingCard conversation={data} handling={handling} />
        <RatingCard conversation={data} />
        <VisitorCard conversation={data} />
        {mayManageVisitorData ? <VisitorDataCard conversation={data} /> : null}
      </div>
    </section>
  );
}

/**
 * Opens on the latest message, and follows new ones while the person is at the end (not while they
 * read back). Beside the list the transcript scrolls on its own; on a phone the page scrolls, so
 * it is the page that opens at the end, right above the pinned composer.
 */
function useTranscriptScroll(data: Conversation) {
  const ref = useRef<HTMLElement>(null);
  const opened = useRef(false);
  const atEnd = useRef(true);
  const entries = data.messages.length + data.notes.length + data.activity.length + data.trackingEvents.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when the timeline grows (its length is the trigger).
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const first = !opened.current;
    opened.current = true;
    const scrollsItself = getComputedStyle(box).overflowY === "auto";
    if (scrollsItself) {
      if (first || atEnd.current) box.scrollTop = box.scrollHeight;
      const onScroll = () => {
        atEnd.current = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
      };
      box.addEventListener("scroll", onScroll, { passive: true });
      return () => box.removeEventListener("scroll", onScroll);
    }
    if (first) {
      const screen = box.parentElement;
      if (screen) window.scrollTo({ top: Math.max(0, screen.getBoundingClientRect().bottom + window.scrollY - window.innerHeight) });
    }
    return undefined;
  }, [entries]);
  return ref;
}
