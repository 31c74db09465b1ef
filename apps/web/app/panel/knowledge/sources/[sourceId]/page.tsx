import type { Metadata } from "next";
import { SourceScreen } from "~/panel/knowledge/SourceScreen.tsx";
import { segmentId } from "~/panel/params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Source" };

export default async function SourcePage({ params }: { params: Promise<{ sourceId: string }> }) {
  const { sourceId } = await params;
  return <SourceScreen sourceId={segmentId(sourceId)} />;
}
