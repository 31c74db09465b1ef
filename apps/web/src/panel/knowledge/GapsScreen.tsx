"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useCan } from "../access/permissions.tsx";
import { formatDateTime, formatNumber } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField } from "../ui/fields.tsx";
import { ActionStatus, Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type Group = RouterOutputs["articles"]["gaps"]["groups"][number];

const KIND_LABELS: Record<keyof Group["kinds"], string> = {
  unanswered: "no article found",
  not_helpful: "answer not helpful",
  no_search_result: "help search found nothing",
};

const plural = (count: number, one: string, many: string) => `${formatNumber(count)} ${count === 1 ? one : many}`;

/**
 * The questions nobody answered in the last 30 days, near-duplicates grouped, most frequent first.
 * A person who may change the knowledge base may dismiss a group; its questions then leave this
 * page and the home page's count (one query in core counts both).
 */
export function GapsScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const can = useCan();
  const [agentId, setAgentId] = useState("");
  const [dismissedNote, setDismissedNote] = useState<string | null>(null);
  const agents = useQuery(trpc.agents.list.queryOptions());
  const gaps = useQuery({ ...trpc.articles.gaps.queryOptions({ agentId: agentId || undefined }), placeholderData: keepPreviousData });
  const dismiss = useMutation(
    trpc.articles.dismissGap.mutationOptions({
      onSuccess: (result, variables) => {
        const group = gaps.data?.groups.find((candidate) => candidate.wording === variables.wording);
        setDismissedNote(`Dismissed “${group?.question ?? variables.wording}” (${plural(result.dismissed, "question", "questions")}).`);
        return Promise.all([
          queryClient.invalidateQueries(trpc.articles.gaps.queryFilter()),
          queryClient.invalidateQueries(trpc.home.get.queryFilter()),
        ]);
      },
    }),
  );

  return (
    <>
      <p className="breadcrumb">
        <Link href="/panel/knowledge">← Knowledge base</Link>
      </p>
      <div className="page-heading">
        <h1>Unanswered questions</h1>
      </div>
      <p className="muted">
        Questions the agents could not answer from the knowledge base, answers visitors found unhelpful, and help-centre searches that found
        nothing — grouped when they ask the same thing in other words. Requests to talk to a person are in the inbox, not here.
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
      <ActionStatus error={dismiss.error} success={dismissedNote} />
      {gaps.isPending ? (
        <Loading label="Loading questions…" />
      ) : gaps.isError ? (
        <QueryError error={gaps.error} onRetry={() => gaps.refetch()} />
      ) : gaps.data.groups.length === 0 ? (
        <EmptyState>No unanswered questions in the last 30 days.</EmptyState>
      ) : (
        <>
          <p className="home-figure" data-testid="gap-totals">
            <strong>{plural(gaps.data.counts.last7Days, "question", "questions")}</strong> in the last 7 days ·{" "}
            <strong>{formatNumber(gaps.data.counts.last30Days)}</strong> in the last 30 days, in{" "}
            {plural(gaps.data.groups.length, "group", "groups")}
          </p>
          <ul className="item-list" aria-label="Question groups" aria-busy={gaps.isFetching || undefined}>
            {gaps.data.groups.map((group) => (
              <GapItem
                key={group.wording}
                group={group}
                mayWrite={can("knowledge.write")}
                dismissing={dismiss.isPending && dismiss.variables?.wording === group.wording}
                onDismiss={() => {
                  setDismissedNote(null);
                  dismiss.mutate({ wording: group.wording, agentId: agentId || undefined });
                }}
              />
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function GapItem({
  group,
  mayWrite,
  dismissing,
  onDismiss,
}: {
  group: Group;
  mayWrite: boolean;
  dismissing: boolean;
  onDismiss: () => void;
}) {
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
      {group.variants.length > 0 ? (
        <p className="item-meta muted">Also asked as: {group.variants.map((variant) => `“${variant}”`).join(", ")}</p>
      ) : null}
      <p className="item-meta">
        <strong>{group.last7Days}</strong> in the last 7 days · <strong>{group.last30Days}</strong> in the last 30 days · last asked{" "}
        {formatDateTime(group.lastAskedAt)}
      </p>
      {mayWrite ? (
        <div className="button-row">
          <Link href={`/panel/knowledge/articles/new?title=${encodeURIComponent(group.question)}`}>Write an article for this</Link>
          <ActionButton onClick={onDismiss} pending={dismissing} pendingLabel="Dismissing…" aria-label={`Dismiss “${group.question}”`}>
            Dismiss
          </ActionButton>
        </div>
      ) : null}
    </li>
  );
}
