import type { Metadata } from "next";
import { ArticleScreen } from "~/panel/knowledge/ArticleScreen.tsx";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Article" };

export default async function ArticlePage({ params }: { params: Promise<{ articleId: string }> }) {
  const { articleId } = await params;
  return <ArticleScreen articleId={segmentId(articleId)} />;
}
