// GET /help/{agentId}/sitemap.xml: the help centre's pages for search engines (home, collections,
// visible articles with lastmod, and an article's versions in other languages as hreflang
// alternates, as its page links them). Not rate limited (crawlers); the help routes' cache rule
// and 404.

import { type HelpAlternate, listSitemapAlternates } from "../knowledge/languages/translations.ts";
import { listVisibleArticleDates } from "../knowledge/search/database-search.ts";
import { findHelpAgent } from "../knowledge/visibility.ts";
import type { PlatformContext } from "../platform/context.ts";
import { AppError } from "../platform/errors.ts";
import type { HttpResult } from "../platform/results.ts";
import { HELP_CACHE_HEADERS, helpErrorResult } from "./api.ts";
import { listCollections } from "./collections.ts";
import { HELP_SITEMAP_MAX_URLS } from "./limits.ts";
import { helpPaths } from "./urls.ts";

export async function helpSitemap(ctx: PlatformContext, request: { agentId: string }): Promise<HttpResult> {
  try {
    const agent = await findHelpAgent(ctx.db, request.agentId);
    if (!agent) throw new AppError("NOT_FOUND");
    const collections = await listCollections(ctx.db, agent.id);
    // The home page and the collections count towards the protocol's limit too.
    const articles = await listVisibleArticleDates(ctx.db, agent.id, Math.max(1, HELP_SITEMAP_MAX_URLS - 1 - collections.length));
    const alternates = await listSitemapAlternates(ctx.db, agent.id);
    const articleUrl = (slug: string) => ctx.appUrl + helpPaths.article(agent.id, slug);
    const newestIn = new Map<string, Date>();
    for (const article of articles) if (!newestIn.has(article.sourceId)) newestIn.set(article.sourceId, article.updatedAt);
    const urls = [
      sitemapUrl(ctx.appUrl + helpPaths.home(agent.id), articles[0]?.updatedAt),
      ...collections.map((collection) =>
        sitemapUrl(ctx.appUrl + helpPaths.collection(agent.id, collection.id), newestIn.get(collection.id)),
      ),
      ...articles.map((article) =>
        sitemapUrl(articleUrl(article.slug), article.updatedAt, (alternates.get(article.slug) ?? []).map(hreflangLink(articleUrl))),
      ),
    ];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
    return { status: 200, headers: { ...HELP_CACHE_HEADERS, "content-type": "application/xml; charset=utf-8" }, text: xml };
  } catch (error) {
    return helpErrorResult(error);
  }
}

function sitemapUrl(location: string, lastModified: Date | undefined, links: string[] = []): string {
  const lastmod = lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : "";
  return `  <url><loc>${escapeXml(location)}</loc>${lastmod}${links.join("")}</url>`;
}

/** An alternate as the sitemap protocol's extension for languages writes it (every version, the page's own too). */
function hreflangLink(articleUrl: (slug: string) => string) {
  return (alternate: HelpAlternate) =>
    `<xhtml:link rel="alternate" hreflang="${alternate.language}" href="${escapeXml(articleUrl(alternate.slug))}"/>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
