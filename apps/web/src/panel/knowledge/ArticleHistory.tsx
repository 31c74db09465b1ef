"use client";

// The article's history beside the editor: every save, newest first, to the second and by whom.
// Choosing one opens what changed since (a dialog: the side panel is narrow), where it can be restored.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTimeSeconds } from "../format.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { Modal } from "../ui/Modal.tsx";
import { ActionStatus, EmptyState, Loading, QueryError } from "../ui/status.tsx";

type DiffPart = RouterOutputs["articles"]["revisionDiff"]["content"][number];
type Revision = RouterOutputs["articles"]["revisions"][number];

/** Every save of the article, newest first; one of them compared with the current text, and restored. */
export function ArticleHistory({ articleId, onRestored }: { articleId: string; onRestored: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revisions = useQuery(trpc.articles.revisions.queryOptions({ articleId }));
  const [selected, setSelected] = useState<Revision | null>(null);
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
    <section className="card history-side" aria-labelledby="article-history-heading">
      <h2 id="article-history-heading">History</h2>
      {revisions.isPending ? (
        <Loading label="Loading history…" />
      ) : revisions.isError ? (
        <QueryError error={revisions.error} onRetry={() => revisions.refetch()} />
      ) : revisions.data.length === 0 ? (
        <EmptyState>No saved versions yet.</EmptyState>
      ) : (
        <ol className="history-list" aria-label="Saved versions">
          {revisions.data.map((revision, index) => (
            <li key={revision.id} className="history-item">
              <button
                type="button"
                className="history-pick"
                aria-haspopup="dialog"
                onClick={() => {
                  restore.reset();
                  setSelected(revision);
                }}
              >
                <time className="history-when" dateTime={new Date(revision.createdAt).toISOString()}>
                  {formatDateTimeSeconds(revision.createdAt)}
                </time>
                <span className="muted small history-author">
                  {revision.authorName ? `by ${revision.authorName}` : "Scheduled publication"} ·{" "}
                  {revision.published ? "published" : "draft"}
                  {index === 0 ? " · current" : ""}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      <ActionStatus success={restore.isSuccess ? "Version restored." : undefined} />
      <Modal
        open={selected !== null}
        onClose={() => setSelected(null)}
        busy={restore.isPending}
        title={selected ? `Version of ${formatDateTimeSeconds(selected.createdAt)}` : "Version"}
      >
        {selected ? (
          <RevisionDiff
            revision={selected}
            restore={restore}
            onRestore={() =>
              restore.mutate(
                { revisionId: selected.id },
                {
                  // Restored: the dialog closes on the history, which says so, and the form takes the restored text.
                  onSuccess: () => {
                    setSelected(null);
                    onRestored();
                  },
                },
              )
            }
            onClose={() => setSelected(null)}
          />
        ) : null}
      </Modal>
    </section>
  );
}

interface RestoreMutation {
  isPending: boolean;
  error: unknown;
}

function RevisionDiff({
  revision,
  restore,
  onRestore,
  onClose,
}: {
  revision: Revision;
  restore: RestoreMutation;
  onRestore: () => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.articles.revisionDiff.queryOptions({ revisionId: revision.id }));
  const close = (
    <ActionButton onClick={onClose} disabled={restore.isPending}>
      Close
    </ActionButton>
  );
  if (diff.isPending) return <Loading label="Comparing…" />;
  if (diff.isError) return <QueryError error={diff.error} onRetry={() => diff.refetch()} />;
  const data = diff.data;
  return (
    <div className="stack history-dialog">
      <p className="small">
        Saved {revision.authorName ? `by ${revision.authorName}` : "by the scheduled publication"}. Changes from this version to the current
        text:{" "}
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
      <p className="field-hint">Restoring saves this version's title and content as a new version; publishing does not change.</p>
      {restore.error ? <ActionStatus error={restore.error} /> : null}
      <div className="modal-actions">
        <ActionButton variant="primary" pending={restore.isPending} disabled={!data.differs} onClick={onRestore}>
          Restore this version
        </ActionButton>
        {close}
      </div>
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
