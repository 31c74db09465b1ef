import type { Metadata } from "next";
import { SourceScreen } from "~/panel/knowledge/SourceScreen.tsx";
import { itemMetadata } from "~/panel/page-title.ts";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export async function generateMetadata({ params }: { params: Promise<{ sourceId: string }> }): Promise<Metadata> {
  return { title: "Source", ...(await itemMetadata("source", (await params).sourceId)) };
}

export default async function SourcePage({ params }: { params: Promise<{ sourceId: string }> }) {
  const { sourceId } = await params;
  return <SourceScreen sourceId={segmentId(sourceId)} />;
}
