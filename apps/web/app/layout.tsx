import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Parley", template: "%s · Parley" },
  description: "Parley hosts conversational agents for businesses.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so that each response carries its own CSP nonce (proxy.ts):
  // a page prerendered at build time would have scripts without one.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
