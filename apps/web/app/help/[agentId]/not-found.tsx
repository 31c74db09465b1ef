// The 404 page inside an existing help centre: hidden (unpublished, archived, unlinked) and unknown
// articles and collections all end here, with status 404 and the same page.
import type { Metadata } from "next";
import { BrandedNotFound } from "~/help/BrandedNotFound.tsx";

export const metadata: Metadata = { title: { absolute: "Page not found – Help centre" }, robots: { index: false } };

export default function HelpAgentNotFound() {
  return <BrandedNotFound />;
}
