import type { Metadata } from "next";
import { NewArticleScreen } from "~/panel/knowledge/NewArticleScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New article" };

export default async function NewArticlePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { source } = await searchParams;
  return <NewArticleScreen sourceId={typeof source === "string" && source ? source : undefined} />;
}
