import type { Metadata } from "next";
import { GapsScreen } from "~/panel/knowledge/GapsScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unanswered questions" };

export default function GapsPage() {
  return <GapsScreen />;
}
