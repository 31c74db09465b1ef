import type { Metadata } from "next";
import { WebhooksScreen } from "~/panel/webhooks/WebhooksScreen.tsx";
import "~/panel/webhooks/webhooks.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return <WebhooksScreen />;
}
