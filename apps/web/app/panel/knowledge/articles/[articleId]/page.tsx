import type { Metadata } from "next";
import { ArticleScreen } from "~/panel/knowledge/ArticleScreen.tsx";
import { itemMetadata } from "~/panel/page-title.ts";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export async function generateMetadata({ params }: { params: Promise<{ articleId: string }> }): Promise<Metadata> {
  return { title: "Article", ...(await itemMetadata("article", (await params).articleId)) };
}

export default async function ArticlePage({ params }: { params: Promise<{ articleId: string }> }) {
  const { articleId } = await params;
  return <ArticleScreen articleId={segmentId(articleId)} />;
}
