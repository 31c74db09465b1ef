"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCan } from "../access/permissions.tsx";
import { isNotFound } from "../errors.ts";
import { formatDateTime } from "../format.ts";
import { useMarkRead } from "../inbox/attention.tsx";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { HandlingPanel } from "./HandlingPanel.tsx";
import { visitorIdentity } from "./identity.ts";
import { RatingBadge } from "./RatingBadge.tsx";
import { RatingCard } from "./RatingCard.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import { Transcript } from "./Transcript.tsx";
import { VisitorCard } from "./VisitorCard.tsx";
import { VisitorDataCard } from "./VisitorDataCard.tsx";

/** `mayManageVisitorData`: the person may export and erase the visitor's data (owners and admins). */
export function ConversationScreen({ conversationId, mayManageVisitorData }: { conversationId: string; mayManageVisitorData: boolean }) {
  const trpc = useTRPC();
  const can = useCan();
  // The live stream refetches it on every change; the slow poll only covers a dropped stream.
  const conversation = useQuery(trpc.conversations.get.queryOptions({ id: conversationId }, { refetchInterval: 60_000 }));
  // Open is read: the person's unread marker and Mine count clear, until the visitor writes again.
  const lastVisitorMessage = conversation.data?.messages.findLast((message) => message.role === "user");
  useMarkRead(conversationId, conversation.data ? (lastVisitorMessage ? String(lastVisitorMessage.createdAt) : null) : undefined);

  const back = (
    <p className="breadcrumb">
      <Link href="/panel/conversations">← Conversations</Link>
    </p>
  );
  if (conversation.isPending)
    return (
      <>
        {back}
        <Loading label="Loading conversation…" />
      </>
    );
  if (conversation.isError) {
    return (
      <>
        {back}
        {isNotFound(conversation.error) ? (
          <EmptyState>Conversation not found.</EmptyState>
        ) : (
          <QueryError error={conversation.error} onRetry={() => conversation.refetch()} />
        )}
      </>
    );
  }

  const data = conversation.data;
  return (
    <>
      {back}
      <div className="page-heading">
        <h1>{visitorIdentity(data)}</h1>
        <StatusBadge status={data.status} />
        {data.rating ? <RatingBadge rating={data.rating.rating} /> : null}
        {data.assignee ? <span className="muted">Assigned to {data.assignee.name}</span> : null}
      </div>
      <p className="muted">
        With{" "}
        {can("agents.read") ? <Link href={`/panel/agents/${encodeURIComponent(data.agentId)}`}>{data.agentName}</Link> : data.agentName} ·{" "}
        {data.channel === "widget" ? "Widget" : "HTTP API"} · started {formatDateTime(data.createdAt)} · <code>{data.id}</code>
      </p>
      <div className="grid-aside">
        <div className="stack">
          <section aria-labelledby="transcript-heading" className="card">
            <h2 id="transcript-heading">Transcript</h2>
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
          <HandlingPanel conversation={data} />
        </div>
        <div className="stack">
          <RatingCard conversation={data} />
          <VisitorCard conversation={data} />
          {mayManageVisitorData ? <VisitorDataCard conversation={data} /> : null}
        </div>
      </div>
    </>
  );
}
