"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPC } from "../trpc.ts";
import { ArticleForm } from "./ArticleForm.tsx";

export function NewArticleScreen({ sourceId, title = "" }: { sourceId?: string; title?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const create = useMutation(
    trpc.articles.create.mutationOptions({
      onSuccess: async (article) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.articles.list.queryFilter()),
          queryClient.invalidateQueries(trpc.sources.list.queryFilter()),
        ]);
        router.push(`/panel/knowledge/articles/${encodeURIComponent(article.id)}`);
      },
    }),
  );

  return (
    <>
      <p className="breadcrumb">
        <Link href={sourceId ? `/panel/knowledge/sources/${encodeURIComponent(sourceId)}` : "/panel/knowledge"}>← Back</Link>
      </p>
      <div className="page-heading">
        <h1>New article</h1>
      </div>
      <p className="muted">New articles start as drafts; publish them from the article page.</p>
      <section className="card" aria-label="Article">
        <ArticleForm
          initial={{ title, slug: "", sourceId: sourceId ?? "", language: "", translationOfId: "", content: "" }}
          submitLabel="Create article"
          pending={create.isPending}
          error={create.error}
          success={create.isSuccess ? "Article created." : undefined}
          onSubmit={(values) => create.mutate({ ...values, published: false })}
        />
      </section>
    </>
  );
}
