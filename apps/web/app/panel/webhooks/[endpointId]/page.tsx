import { webhookUrlHint } from "@parley/core";
import type { Metadata } from "next";
import { itemMetadata } from "~/panel/page-title.ts";
import { segmentId } from "~/panel/params.ts";
import { EndpointScreen } from "~/panel/webhooks/EndpointScreen.tsx";
import { getAppContext } from "~/server/context.ts";
import "~/panel/webhooks/webhooks.css";

export const dynamic = "force-dynamic";
export async function generateMetadata({ params }: { params: Promise<{ endpointId: string }> }): Promise<Metadata> {
  return { title: "Webhook endpoint", ...(await itemMetadata("webhook", (await params).endpointId)) };
}

export default async function WebhookEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  return <EndpointScreen endpointId={segmentId(endpointId)} urlHint={webhookUrlHint(await getAppContext())} />;
}
