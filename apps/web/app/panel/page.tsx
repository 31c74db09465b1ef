import type { Metadata } from "next";
import { HomeScreen } from "~/panel/home/HomeScreen.tsx";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Home" };

export default function PanelHomePage() {
  return <HomeScreen />;
}
