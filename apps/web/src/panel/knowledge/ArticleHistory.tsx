"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type DiffPart = RouterOutputs["articles"]["revisionDiff"]["content"][number];

/** Every save of the article, newest first; one of them compared with the current text, and restored. */
export function ArticleHistory({ articleId, onRestored }: { articleId: string; onRestored: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revisions = useQuery(trpc.articles.revisions.queryOptions({ articleId }));
  const [selected, setSelected] = useState<string | null>(null);
  const restore = useMutation(
    trpc.articles.restoreRevision.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.articles.get.queryFilter({ id: articleId })),
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
          queryClient.invalidateQueries(trpc.articles.revisions.queryFilter({ articleId })),
          queryClient.invalidateQueries(trpc.articles.revisionDiff.queryFilter()),
        ]),
    }),
  );

  return (
    <section className="card" aria-labelledby="article-history-heading">
      <h2 id="article-history-heading">History</h2>
      {revisions.isPending ? (
        <Loading label="Loading history…" />
      ) : revisions.isError ? (
        <QueryError error={revisions.error} onRetry={() => revisions.refetch()} />
      ) : revisions.data.length === 0 ? (
        <EmptyState>No saved versions yet.</EmptyState>
      ) : (
        <div className="history">
          <ol className="history-list" aria-label="Saved versions">
            {revisions.data.map((revision, index) => (
              <li key={revision.id} className={selected === revision.id ? "history-item history-selected" : "history-item"}>
                <button
                  type="button"
                  className="history-pick"
                  aria-pressed={selected === revision.id}
                  onClick={() => {
                    restore.reset();
                    setSelected(revision.id);
                  }}
                >
                  <span className="history-when">{formatDateTime(revision.createdAt)}</span>
                  <span className="muted small">
                    {revision.authorName ?? "Scheduled publication"} · {revision.published ? "published" : "draft"}
                    {index === 0 ? " · current" : ""}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          <div className="history-diff">
            {selected ? (
              <RevisionDiff
                revisionId={selected}
                restore={restore}
                onRestore={() => restore.mutate({ revisionId: selected }, { onSuccess: onRestored })}
              />
            ) : (
              <p className="muted">Choose a version to see what changed since, and to restore it.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

interface RestoreMutation {
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
}

function RevisionDiff({ revisionId, restore, onRestore }: { revisionId: string; restore: RestoreMutation; onRestore: () => void }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.articles.revisionDiff.queryOptions({ revisionId }));
  if (diff.isPending) return <Loading label="Comparing…" />;
  if (diff.isError) return <QueryError error={diff.error} onRetry={() => diff.refetch()} />;
  const data = diff.data;
  return (
    <div className="stack">
      <p className="small">
        Changes from the version of {formatDateTime(data.createdAt)} to the current text:{" "}
        <span className="diff-legend">
          <del>removed</del> <ins>added</ins>
        </span>
      </p>
      {data.differs ? (
        <>
          <p className="diff-title">
            <DiffText parts={data.title} />
          </p>
          <pre className="diff">
            <DiffText parts={data.content} />
          </pre>
        </>
      ) : (
        <p className="muted">This version has the same title and content as the current one.</p>
      )}
      <div className="button-row">
        <ActionButton pending={restore.isPending} disabled={!data.differs} onClick={onRestore}>
          Restore this version
        </ActionButton>
      </div>
      <p className="field-hint">Restoring saves this version's title and content as a new version; publishing does not change.</p>
      <ActionStatus error={restore.error} success={restore.isSuccess ? "Version restored." : undefined} />
    </div>
  );
}

function DiffText({ parts }: { parts: DiffPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.change === "added" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <ins key={index}>{part.text}</ins>
        ) : part.change === "removed" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <del key={index}>{part.text}</del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
