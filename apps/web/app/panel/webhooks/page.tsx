import { webhookUrlHint } from "@parley/core";
import type { Metadata } from "next";
import { WebhooksScreen } from "~/panel/webhooks/WebhooksScreen.tsx";
import { getAppContext } from "~/server/context.ts";
import "~/panel/webhooks/webhooks.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  return <WebhooksScreen urlHint={webhookUrlHint(await getAppContext())} />;
}
