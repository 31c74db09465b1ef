import type { Metadata } from "next";
import { AccountScreen } from "~/panel/account/AccountScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account" };

export default function AccountPage() {
  return <AccountScreen />;
}
