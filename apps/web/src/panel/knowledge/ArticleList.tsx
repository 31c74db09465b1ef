"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatDateTime, formatViews } from "../format.ts";
import { useTRPC } from "../trpc.ts";
import { EmptyState, Loading, QueryError } from "../ui/status.tsx";
import { ArticleBadges } from "./ArticleBadges.tsx";

export function ArticleList({ sourceId, query }: { sourceId?: string; query?: string }) {
  const trpc = useTRPC();
  const articles = useQuery({ ...trpc.articles.list.queryOptions({ sourceId, query }), placeholderData: keepPreviousData });

  if (articles.isPending) return <Loading label="Loading articles…" />;
  if (articles.isError) return <QueryError error={articles.error} onRetry={() => articles.refetch()} />;
  if (articles.data.length === 0) {
    return <EmptyState>{query ? "No articles match this search." : "No articles yet — create one with “New article”."}</EmptyState>;
  }
  return (
    <ul className="item-list" aria-busy={articles.isFetching || undefined}>
      {articles.data.map((article) => (
        <li key={article.id} className="item">
          <div className="item-main">
            <Link href={`/panel/knowledge/articles/${encodeURIComponent(article.id)}`} className="item-title">
              {article.title}
            </Link>
            <ArticleBadges article={article} />
          </div>
          <p className="item-meta muted">
            {article.sourceName} · updated {formatDateTime(article.updatedAt)} · {formatViews(article.viewCount)} · {helpfulScore(article)}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Visitors' "Was this helpful?" answers: the share of yes and how many answered. */
function helpfulScore({ helpful, votes }: { helpful: number; votes: number }): string {
  if (votes === 0) return "no votes yet";
  return `${Math.round((helpful / votes) * 100)}% helpful (${helpful} of ${votes} ${votes === 1 ? "vote" : "votes"})`;
}
