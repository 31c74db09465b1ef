import type { Metadata } from "next";
import { KnowledgeScreen } from "~/panel/knowledge/KnowledgeScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Knowledge base" };

export default function KnowledgePage() {
  return <KnowledgeScreen />;
}
