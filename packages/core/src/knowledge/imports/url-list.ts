// A list of page URLs, or a sitemap's URL: each page is fetched through the SSRF guard and turned
// into an article (its URL is its source URL, so importing it again updates it). A sitemap (an
// XML urlset) stands for the pages it lists; a sitemap index's entries are reported, not followed.
// A few pages are fetched at once, the report keeping the list's order; once the import's time
// runs out, no fetch starts and the one under way is cut off.
import pLimit, { type LimitFunction } from "p-limit";
import type { UrlPolicy } from "../../platform/url-guard.ts";
import { IMPORT_FETCH_CONCURRENCY, IMPORT_FETCH_TIMEOUT_MS, IMPORT_TIME_BUDGET_MS, IMPORT_URLS_MAX } from "../limits.ts";
import { Deadline } from "./budget.ts";
import { FetchTimeoutError, fetchGuardedPage } from "./fetch-page.ts";
import { pageToArticle } from "./html.ts";
import type { ImportItem } from "./items.ts";

export interface UrlListOptions extends UrlPolicy {
  deadline?: Deadline;
  fetchTimeoutMs?: number;
  /** Pages fetched at once. */
  concurrency?: number;
}

/** The lines of the pasted list that look like URLs, without duplicates. */
export function parseUrlList(text: string): string[] {
  const urls = text
    .split(/\s+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return [...new Set(urls)];
}

/** A fetched entry of the list: its article (or why not), or the pages of the sitemap it was. */
type Fetched = { item: ImportItem } | { locations: string[] };

export async function* urlListItems(list: string, options: UrlListOptions): AsyncGenerator<ImportItem> {
  const fetcher = new PageFetcher(options);
  let count = 0;
  try {
    for await (const fetched of fetcher.inOrder(parseUrlList(list), (entry) => fetcher.entry(entry))) {
      if ("item" in fetched) {
        if (!fetched.item.failure && ++count > IMPORT_URLS_MAX) {
          yield tooMany(fetched.item.name);
          return;
        }
        yield fetched.item;
        continue;
      }
      const pages = fetched.locations.slice(0, IMPORT_URLS_MAX - count);
      count += pages.length;
      yield* fetcher.inOrder(pages, (url) => fetcher.nestedSitemapOrPage(url));
      if (pages.length < fetched.locations.length) {
        yield tooMany(fetched.locations[pages.length] as string);
        return;
      }
    }
  } finally {
    // Stopped early (the page limit, or the worker lost its claim): fetch nothing more.
    fetcher.limit.clearQueue();
  }
}

function tooMany(url: string): ImportItem {
  return { name: url, failure: `More than ${IMPORT_URLS_MAX.toLocaleString("en-US")} pages in one import; the rest were not imported` };
}

/** Less time left than this is not worth a connection (and a timer may fire a millisecond early). */
const MIN_FETCH_MS = 50;

class PageFetcher {
  readonly limit: LimitFunction;
  private readonly deadline: Deadline;
  private readonly timeoutMs: number;
  /** Fetches started ahead of the report, waiting for their turn in it (a few pages in memory at most). */
  private readonly lookahead: number;

  constructor(private readonly options: UrlListOptions) {
    const concurrency = options.concurrency ?? IMPORT_FETCH_CONCURRENCY;
    this.limit = pLimit(concurrency);
    this.lookahead = concurrency * 2;
    this.deadline = options.deadline ?? new Deadline(IMPORT_TIME_BUDGET_MS);
    this.timeoutMs = options.fetchTimeoutMs ?? IMPORT_FETCH_TIMEOUT_MS;
  }

  /** `work` for each input, at most `concurrency` at once (shared by every call), results in input order. */
  async *inOrder<T, R>(inputs: Iterable<T>, work: (input: T) => Promise<R>): AsyncGenerator<R> {
    const pending: Promise<R>[] = [];
    for (const input of inputs) {
      pending.push(this.limit(() => work(input)));
      if (pending.length >= this.lookahead) yield await (pending.shift() as Promise<R>);
    }
    while (pending.length > 0) yield await (pending.shift() as Promise<R>);
  }

  /** An entry of the list: a page, or a sitemap standing for its pages. Never throws. */
  async entry(url: string): Promise<Fetched> {
    const page = await this.fetch(url);
    if ("failure" in page) return { item: { name: url, failure: page.failure } };
    const locations = sitemapLocations(page.text);
    return locations === null ? { item: articleOf(url, page.text) } : { locations };
  }

  /** A sitemap's page; a nested sitemap index is not followed. Never throws. */
  async nestedSitemapOrPage(url: string): Promise<ImportItem> {
    const page = await this.fetch(url);
    if ("failure" in page) return { name: url, failure: page.failure };
    if (sitemapLocations(page.text) !== null)
      return { name: url, skip: "A nested sitemap index is not followed; import its URL on its own" };
    return articleOf(url, page.text);
  }

  private async fetch(url: string): Promise<{ text: string } | { failure: string }> {
    const left = this.deadline.remaining();
    if (left < MIN_FETCH_MS) return { failure: this.deadline.notFetched };
    const cutByDeadline = left < this.timeoutMs;
    try {
      const page = await fetchGuardedPage(url, this.options, Math.min(this.timeoutMs, left));
      return { text: page.text };
    } catch (error) {
      if (error instanceof FetchTimeoutError && cutByDeadline) return { failure: this.deadline.notFetched };
      return { failure: error instanceof Error ? error.message : "The page could not be fetched" };
    }
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
