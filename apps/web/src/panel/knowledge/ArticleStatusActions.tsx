"use client";

import { articleStatus } from "@parley/core/browser";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { ActionStatus } from "../ui/status.tsx";

type Article = RouterOutputs["articles"]["get"];

/** Publish state and archive state are separate: an archived article stays hidden even if published. */
export function ArticleStatusActions({ article }: { article: Article }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.articles.get.queryFilter({ id: article.id })),
      queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
      queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
      // Publishing and unpublishing are saves: each adds a version to the history.
      queryClient.invalidateQueries(trpc.articles.revisions.queryFilter({ articleId: article.id })),
    ]);
  const setPublished = useMutation(trpc.articles.setPublished.mutationOptions({ onSuccess: refresh }));
  const setActive = useMutation(trpc.articles.setActive.mutationOptions({ onSuccess: refresh }));

  let success: string | undefined;
  if (setPublished.isSuccess)
    success = setPublished.variables.published ? "Published." : "Unpublished: hidden from help centres within 30 seconds.";
  else if (setActive.isSuccess) success = setActive.variables.active ? "Restored." : "Archived: hidden from help centres and agents.";

  const busy = setPublished.isPending || setActive.isPending;
  return (
    <section aria-labelledby="article-status-heading" className="card">
      <h2 id="article-status-heading">Visibility</h2>
      <p className="muted small">{articleStatus(article).note}</p>
      <div className="button-row">
        <ActionButton
          variant={article.published ? "secondary" : "primary"}
          pending={setPublished.isPending}
          disabled={busy}
          onClick={() => {
            setActive.reset();
            setPublished.mutate({ id: article.id, published: !article.published });
          }}
        >
          {article.published ? "Unpublish" : "Publish"}
        </ActionButton>
        <ActionButton
          variant={article.active ? "danger" : "secondary"}
          pending={setActive.isPending}
          disabled={busy}
          onClick={() => {
            setPublished.reset();
            setActive.mutate({ id: article.id, active: !article.active });
          }}
        >
          {article.active ? "Archive" : "Restore"}
        </ActionButton>
      </div>
      <p className="field-hint">
        Archived, not deleted: an archived article stays in the knowledge base, hidden, and Restore brings it back. To remove it for good,
        delete it below.
      </p>
      <ActionStatus error={setPublished.error ?? setActive.error} success={success} />
    </section>
  );
}
