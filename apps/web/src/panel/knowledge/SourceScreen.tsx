"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPC } from "../trpc.ts";
import { DeleteCard } from "../ui/DeleteCard.tsx";
import { Badge, EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { ArticleBrowser } from "./ArticleBrowser.tsx";
import { ImportArticles } from "./ImportArticles.tsx";
import { SourceAgentsForm } from "./SourceAgentsForm.tsx";
import { SourceSettingsForm } from "./SourceSettingsForm.tsx";

export function SourceScreen({ sourceId }: { sourceId: string }) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.sources.list.queryOptions());
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.sources.delete.mutationOptions({
      onSuccess: async () => {
        router.push("/panel/knowledge");
        await Promise.all([
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
        ]);
      },
    }),
  );
  const back = (
    <p className="breadcrumb">
      <Link href="/panel/knowledge">← Knowledge base</Link>
    </p>
  );

  if (sources.isPending)
    return (
      <>
        {back}
        <Loading label="Loading source…" />
      </>
    );
  if (sources.isError)
    return (
      <>
        {back}
        <QueryError error={sources.error} onRetry={() => sources.refetch()} />
      </>
    );
  const source = sources.data.find((candidate) => candidate.id === sourceId);
  if (!source)
    return (
      <>
        {back}
        <EmptyState>Source not found.</EmptyState>
      </>
    );

  return (
    <>
      {back}
      <div className="page-heading">
        <h1>{source.name}</h1>
        {source.active ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Inactive</Badge>}
      </div>
      <p className="muted">
        {source.articleCount} articles, {source.publishedCount} published
      </p>
      <div className="grid-2">
        <section aria-labelledby="source-settings-heading" className="card">
          <h2 id="source-settings-heading">Settings</h2>
          <SourceSettingsForm key={source.id} source={source} />
        </section>
        <section aria-labelledby="source-agents-heading" className="card">
          <h2 id="source-agents-heading">Agents using this source</h2>
          <SourceAgentsForm key={source.id} source={source} />
        </section>
      </div>
      <ImportArticles sourceId={source.id} />
      <section aria-labelledby="source-articles-heading">
        <h2 id="source-articles-heading">Articles</h2>
        <ArticleBrowser sourceId={source.id} />
      </section>
      <DeleteCard
        thing="source"
        consequences={
          <p>
            Its {source.articleCount} article{source.articleCount === 1 ? "" : "s"} are deleted with it: they leave the help centre (their
            pages answer 404) and the agents' knowledge at once. Agents using the source keep running without it.
          </p>
        }
        pending={remove.isPending}
        error={remove.error}
        onDelete={() => remove.mutate({ id: source.id })}
        onCancel={() => remove.reset()}
      />
    </>
  );
}
