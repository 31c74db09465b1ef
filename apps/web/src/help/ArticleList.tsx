// A list of article summaries: title, collection and date, and a plain-text excerpt (with the
// search terms marked on the search page). Text goes through React, so it is always escaped.

import { excerpt, helpPaths, highlight } from "@parley/core/help";
import { HELP_EXCERPT_CHARS } from "@parley/core/help/limits";
import type { ArticleHit } from "@parley/core/knowledge";
import { markdownToPlainText } from "@parley/core/knowledge";
import Link from "next/link";
import { Fragment } from "react";
import { formatDate } from "./format.ts";

export function Highlighted(props: { text: string; query: string }) {
  return (
    <>
      {highlight(props.text, props.query).map((segment, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: segments are a fixed split of one string
        segment.match ? <mark key={index}>{segment.text}</mark> : <Fragment key={index}>{segment.text}</Fragment>,
      )}
    </>
  );
}

export function ArticleList(props: {
  agentId: string;
  articles: ArticleHit[];
  query?: string;
  showCollection?: boolean;
  headingLevel?: 2 | 3;
}) {
  const query = props.query ?? "";
  const Heading = props.headingLevel === 3 ? "h3" : "h2";
  return (
    <ul className="help-article-list">
      {props.articles.map((article) => (
        // An article is read aloud in its language, set or detected (one not detected yet keeps the page's).
        <li key={article.id} lang={article.language ?? undefined}>
          <Heading className="help-article-title">
            <Link href={helpPaths.article(props.agentId, article.slug)}>
              <Highlighted text={article.title} query={query} />
            </Link>
          </Heading>
          <p className="help-article-excerpt">
            <Highlighted text={excerpt(markdownToPlainText(article.content), query, HELP_EXCERPT_CHARS)} query={query} />
          </p>
          <p className="help-article-meta">
            {props.showCollection ? <>{article.sourceName} · </> : null}
            Updated <time dateTime={article.updatedAt.toISOString()}>{formatDate(article.updatedAt)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
