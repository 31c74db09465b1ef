// A list of page URLs, or a sitemap's URL: each page is fetched through the SSRF guard and turned
// into an article (its URL is its source URL, so importing it again updates it). A sitemap (an
// XML urlset) stands for the pages it lists; a sitemap index's entries are reported, not followed.
import { IMPORT_URLS_MAX } from "../limits.ts";
import type { UrlPolicy } from "../webhooks/url-guard.ts";
import { fetchGuardedPage } from "./fetch-page.ts";
import { pageToArticle } from "./html.ts";
import type { ImportItem } from "./items.ts";

/** The lines of the pasted list that look like URLs, without duplicates. */
export function parseUrlList(text: string): string[] {
  const urls = text
    .split(/\s+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return [...new Set(urls)];
}

export async function* urlListItems(list: string, policy: UrlPolicy): AsyncGenerator<ImportItem> {
  let count = 0;
  for (const entry of parseUrlList(list)) {
    let page: Awaited<ReturnType<typeof fetchGuardedPage>>;
    try {
      page = await fetchGuardedPage(entry, policy);
    } catch (error) {
      yield { name: entry, failure: reasonOf(error) };
      continue;
    }
    const locations = sitemapLocations(page.text);
    const pages = locations ?? [entry];
    for (const pageUrl of pages) {
      if (++count > IMPORT_URLS_MAX) {
        yield {
          name: pageUrl,
          failure: `More than ${IMPORT_URLS_MAX.toLocaleString("en-US")} pages in one import; the rest were not imported`,
        };
        return;
      }
      if (locations === null) yield articleOf(entry, page.text);
      else yield* nestedSitemapOrPage(pageUrl, policy);
    }
  }
}

async function* nestedSitemapOrPage(url: string, policy: UrlPolicy): AsyncGenerator<ImportItem> {
  try {
    const page = await fetchGuardedPage(url, policy);
    if (sitemapLocations(page.text) !== null)
      yield { name: url, skip: "A nested sitemap index is not followed; import its URL on its own" };
    else yield articleOf(url, page.text);
  } catch (error) {
    yield { name: url, failure: reasonOf(error) };
  }
}

function articleOf(url: string, html: string): ImportItem {
  const { title, content } = pageToArticle(html);
  return { name: url, title, content, sourceUrl: url };
}

/** The <loc> entries of a sitemap, or null when the text is not one. */
export function sitemapLocations(text: string): string[] | null {
  if (!/<(urlset|sitemapindex)[\s>]/i.test(text.slice(0, 4096))) return null;
  return [...text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((match) => decodeXml(match[1] ?? ""));
}

function decodeXml(text: string): string {
  return text
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : "The page could not be fetched";
}
