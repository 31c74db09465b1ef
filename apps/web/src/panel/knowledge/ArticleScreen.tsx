"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { isNotFound } from "../errors.ts";
import { formatDateTimeSeconds, formatViews } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { DeleteCard } from "../ui/DeleteCard.tsx";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { ArticleBadges } from "./ArticleBadges.tsx";
import { ArticleForm } from "./ArticleForm.tsx";
import { ArticleHistory } from "./ArticleHistory.tsx";
import { ArticleSchedule } from "./ArticleSchedule.tsx";
import { ArticleStatusActions } from "./ArticleStatusActions.tsx";
import { HelpLinks } from "./HelpLinks.tsx";

export function ArticleScreen({ articleId }: { articleId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const article = useQuery(trpc.articles.get.queryOptions({ id: articleId }));
  const [restores, setRestores] = useState(0);
  const update = useMutation(
    trpc.articles.update.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.articles.get.queryFilter({ id: articleId })),
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
          queryClient.invalidateQueries(trpc.articles.revisions.queryFilter({ articleId })),
          queryClient.invalidateQueries(trpc.articles.translationOriginals.queryFilter()),
        ]),
    }),
  );

  const router = useRouter();
  const remove = useMutation(
    trpc.articles.delete.mutationOptions({
      onSuccess: async () => {
        const sourceId = article.data?.sourceId;
        queryClient.removeQueries(trpc.articles.get.queryFilter({ id: articleId }));
        await Promise.all([
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
        ]);
        router.push(sourceId ? `/panel/knowledge/sources/${encodeURIComponent(sourceId)}` : "/panel/knowledge");
      },
    }),
  );

  const back = (
    <p className="breadcrumb">
      <Link href="/panel/knowledge">← Knowledge base</Link>
      {article.data ? (
        <>
          {" / "}
          <Link href={`/panel/knowledge/sources/${encodeURIComponent(article.data.sourceId)}`}>{article.data.sourceName}</Link>
        </>
      ) : null}
    </p>
  );
  if (article.isPending)
    return (
      <>
        {back}
        <Loading label="Loading article…" />
      </>
    );
  if (article.isError) {
    return (
      <>
        {back}
        {isNotFound(article.error) ? (
          <EmptyState>Article not found.</EmptyState>
        ) : (
          <QueryError error={article.error} onRetry={() => article.refetch()} />
        )}
      </>
    );
  }

  const data = article.data;
  return (
    <>
      {back}
      <div className="page-heading">
        <h1>{data.title}</h1>
        <ArticleBadges article={data} />
      </div>
      <p className="muted">
        Updated {formatDateTimeSeconds(data.updatedAt)} · {formatViews(data.viewCount)} in the help centre
      </p>
      <div className="grid-aside">
        <section className="card" aria-label="Edit article">
          <ArticleForm
            // A restored version replaces what the form holds.
            key={`${data.id}:${restores}`}
            initial={{
              title: data.title,
              slug: data.slug,
              sourceId: data.sourceId,
              language: data.language ?? "",
              translationOfId: data.translationOfId ?? "",
              content: data.content,
            }}
            editing={{
              id: data.id,
              detectedLanguage: data.detectedLanguage,
              translationOf: data.translationOf,
              translations: data.translations,
            }}
            submitLabel="Save article"
            pending={update.isPending}
            error={update.error}
            success={update.isSuccess ? "Article saved." : undefined}
            onEdit={() => update.isSuccess && update.reset()}
            onSubmit={(values) => update.mutate({ id: data.id, ...values })}
          />
        </section>
        <div className="stack">
          <ArticleStatusActions article={data} />
          <ArticleHistory articleId={data.id} onRestored={() => setRestores((count) => count + 1)} />
          {data.published ? null : <ArticleSchedule article={data} />}
          <HelpLinks article={data} />
          <DeleteCard
            thing="article"
            consequences={
              <p>
                The article leaves the help centre and the agents' knowledge at once (its page answers 404) and its search index entries go
                with it.
              </p>
            }
            pending={remove.isPending}
            error={remove.error}
            onDelete={() => remove.mutate({ id: data.id })}
            onCancel={() => remove.reset()}
          />
        </div>
      </div>
    </>
  );
}
