"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { SelectField } from "../ui/fields.tsx";
import { Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type Group = RouterOutputs["articles"]["gaps"][number];

const KIND_LABELS: Record<keyof Group["kinds"], string> = {
  unanswered: "no article found",
  handoff: "asked for a person",
  not_helpful: "answer not helpful",
  no_search_result: "help search found nothing",
};

/** The questions nobody answered in the last 30 days, grouped by wording, most frequent first. */
export function GapsScreen() {
  const trpc = useTRPC();
  const [agentId, setAgentId] = useState("");
  const agents = useQuery(trpc.agents.list.queryOptions());
  const gaps = useQuery({ ...trpc.articles.gaps.queryOptions({ agentId: agentId || undefined }), placeholderData: keepPreviousData });

  return (
    <>
      <p className="breadcrumb">
        <Link href="/panel/knowledge">← Knowledge base</Link>
      </p>
      <div className="page-heading">
        <h1>Unanswered questions</h1>
      </div>
      <p className="muted">
        Questions the agents could not answer from the knowledge base, visitors who asked for a person or found an answer unhelpful, and
        help-centre searches that found nothing — grouped when they use the same words.
      </p>
      <div className="toolbar">
        <SelectField label="Agent" name="agentId" value={agentId} onChange={(event) => setAgentId(event.target.value)}>
          <option value="">All agents</option>
          {(agents.data ?? []).map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </SelectField>
      </div>
      {gaps.isPending ? (
        <Loading label="Loading questions…" />
      ) : gaps.isError ? (
        <QueryError error={gaps.error} onRetry={() => gaps.refetch()} />
      ) : gaps.data.length === 0 ? (
        <EmptyState>No unanswered questions in the last 30 days.</EmptyState>
      ) : (
        <ul className="item-list" aria-label="Question groups" aria-busy={gaps.isFetching || undefined}>
          {gaps.data.map((group) => (
            <GapItem key={group.wording} group={group} />
          ))}
        </ul>
      )}
    </>
  );
}

function GapItem({ group }: { group: Group }) {
  const kinds = (Object.keys(KIND_LABELS) as Array<keyof Group["kinds"]>).filter((kind) => group.kinds[kind] > 0);
  return (
    <li className="item">
      <div className="item-main">
        <span className="item-title">{group.question}</span>
        <span className="badges">
          {kinds.map((kind) => (
            <Badge key={kind} tone={kind === "no_search_result" ? "neutral" : "warn"}>
              {group.kinds[kind]} × {KIND_LABELS[kind]}
            </Badge>
          ))}
        </span>
      </div>
      <p className="item-meta">
        <strong>{group.last7Days}</strong> in the last 7 days · <strong>{group.last30Days}</strong> in the last 30 days · last asked{" "}
        {formatDateTime(group.lastAskedAt)}
      </p>
      <p className="item-meta">
        <Link href={`/panel/knowledge/articles/new?title=${encodeURIComponent(group.question)}`}>Write an article for this</Link>
      </p>
    </li>
  );
}
