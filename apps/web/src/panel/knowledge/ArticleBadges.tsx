"use client";

import { type ArticleState, articleStatus } from "@parley/core/browser";
import { Badge } from "../ui/status.tsx";

/** One status (Published, Draft or Archived, never two of them), and Not visible when the source hides it. */
export function ArticleBadges({ article }: { article: ArticleState }) {
  const status = articleStatus(article);
  return (
    <span className="badges">
      <Badge tone={status.tone}>{status.label}</Badge>
      {article.active && !article.sourceActive ? <Badge tone="warn">Not visible</Badge> : null}
    </span>
  );
}
