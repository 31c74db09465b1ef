// What the panel says of an article's state: one status (an archived article is Archived, never
// also Published), whether visitors and agents can see it, and why not. Pure, so the panel's
// browser code imports it through @parley/core/browser; the visibility rule itself (which queries
// serve) is ../visibility.ts.

export interface ArticleState {
  published: boolean;
  /** false: archived. */
  active: boolean;
  /** Whether the article's source is active (an inactive source hides all its articles). */
  sourceActive: boolean;
}

export interface ArticleStatus {
  label: "Published" | "Draft" | "Archived";
  tone: "good" | "neutral" | "bad";
  /** Whether visitors (the help centres of the source's active agents) and agents see it. */
  visible: boolean;
  /** One sentence on who sees it, or why nobody does. */
  note: string;
}

export function articleStatus(article: ArticleState): ArticleStatus {
  if (!article.active) return { label: "Archived", tone: "bad", visible: false, note: "Archived: not visible to visitors or agents." };
  const label = article.published ? "Published" : "Draft";
  const tone = article.published ? "good" : "neutral";
  if (!article.sourceActive) return { label, tone, visible: false, note: "Not visible: its source is inactive." };
  if (!article.published) return { label, tone, visible: false, note: "Draft: not visible to visitors or agents." };
  return { label, tone, visible: true, note: "Visible in the help centre of every active agent linked to this source." };
}
