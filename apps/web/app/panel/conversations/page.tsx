import type { Metadata } from "next";
import { ConversationsScreen } from "~/panel/conversations/ConversationsScreen.tsx";
import { parseFilters } from "~/panel/conversations/filters.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Conversations" };

export default async function ConversationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <ConversationsScreen filters={parseFilters(await searchParams)} />;
}
