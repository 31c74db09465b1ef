"use client";

import { Badge } from "../ui/status.tsx";

export function ArticleBadges({ article }: { article: { published: boolean; active: boolean } }) {
  return (
    <span className="badges">
      {article.published ? <Badge tone="good">Published</Badge> : <Badge>Draft</Badge>}
      {article.active ? null : <Badge tone="bad">Archived</Badge>}
    </span>
  );
}
