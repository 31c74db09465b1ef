import type { Metadata } from "next";
import { SavedRepliesScreen } from "~/panel/conversations/SavedRepliesScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Saved replies" };

export default function SavedRepliesPage() {
  return <SavedRepliesScreen />;
}
