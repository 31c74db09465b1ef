import type { Metadata } from "next";

/** The help centre's name, as shown in titles and Open Graph: its public name (branding). */
export function siteName(helpName: string): string {
  return helpName;
}

/** Title, description, canonical URL and Open Graph tags of a help page. */
export function helpMetadata(options: {
  appUrl: string;
  path: string;
  /** The help centre's public name (its branding). */
  agentName: string;
  /** The page's own title; absent for the help centre's home page. */
  title?: string;
  description: string;
  type?: "website" | "article";
  modifiedTime?: Date;
  noIndex?: boolean;
  /** The page in other languages: hreflang code (or x-default) to path, each a `<link rel="alternate">`. */
  languages?: Record<string, string>;
}): Metadata {
  const site = siteName(options.agentName);
  const title = options.title ? `${options.title} – ${site}` : site;
  const url = `${options.appUrl}${options.path}`;
  return {
    metadataBase: new URL(options.appUrl),
    title: { absolute: title },
    description: options.description,
    alternates: {
      canonical: url,
      languages: options.languages
        ? Object.fromEntries(Object.entries(options.languages).map(([language, path]) => [language, `${options.appUrl}${path}`]))
        : undefined,
    },
    openGraph:
      options.type === "article"
        ? {
            type: "article",
            title,
            description: options.description,
            url,
            siteName: site,
            modifiedTime: options.modifiedTime?.toISOString(),
          }
        : { type: "website", title, description: options.description, url, siteName: site },
    twitter: { card: "summary", title, description: options.description },
    robots: options.noIndex ? { index: false, follow: true } : undefined,
  };
}
