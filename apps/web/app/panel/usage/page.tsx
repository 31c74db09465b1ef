import type { Metadata } from "next";
import { UsageScreen } from "~/panel/usage/UsageScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  return <UsageScreen />;
}
