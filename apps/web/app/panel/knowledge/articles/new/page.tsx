import { ARTICLE_TITLE_MAX_CHARS } from "@parley/core/limits";
import type { Metadata } from "next";
import { NewArticleScreen } from "~/panel/knowledge/NewArticleScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New article" };

export default async function NewArticlePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { source, title } = await searchParams;
  // The gaps page's "Write an article for this" passes the question as the title (cut to a title's length).
  const initialTitle = typeof title === "string" ? Array.from(title.trim()).slice(0, ARTICLE_TITLE_MAX_CHARS).join("") : "";
  return <NewArticleScreen sourceId={typeof source === "string" && source ? source : undefined} title={initialTitle} />;
}
