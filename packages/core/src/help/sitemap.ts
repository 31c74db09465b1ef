// GET /help/{agentId}/sitemap.xml: the help centre's pages for search engines (home, collections,
// visible articles with lastmod). Not rate limited (crawlers); the help routes' cache rule and 404.
import type { AppContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { HELP_SITEMAP_MAX_URLS } from "../limits.ts";
import type { HttpResult } from "../results.ts";
import { HELP_CACHE_HEADERS, helpErrorResult } from "./api.ts";
import { listCollections } from "./collections.ts";
import { listVisibleArticleDates } from "./search.ts";
import { helpPaths } from "./urls.ts";
import { findHelpAgent } from "./visibility.ts";

export async function helpSitemap(ctx: AppContext, request: { agentId: string }): Promise<HttpResult> {
  try {
    const agent = await findHelpAgent(ctx.db, request.agentId);
    if (!agent) throw new AppError("NOT_FOUND");
    const collections = await listCollections(ctx.db, agent.id);
    // The home page and the collections count towards the protocol's limit too.
    const articles = await listVisibleArticleDates(ctx.db, agent.id, Math.max(1, HELP_SITEMAP_MAX_URLS - 1 - collections.length));
    const newestIn = new Map<string, Date>();
    for (const article of articles) if (!newestIn.has(article.sourceId)) newestIn.set(article.sourceId, article.updatedAt);
    const urls = [
      sitemapUrl(ctx.appUrl + helpPaths.home(agent.id), articles[0]?.updatedAt),
      ...collections.map((collection) =>
        sitemapUrl(ctx.appUrl + helpPaths.collection(agent.id, collection.id), newestIn.get(collection.id)),
      ),
      ...articles.map((article) => sitemapUrl(ctx.appUrl + helpPaths.article(agent.id, article.slug), article.updatedAt)),
    ];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
    return { status: 200, headers: { ...HELP_CACHE_HEADERS, "content-type": "application/xml; charset=utf-8" }, text: xml };
  } catch (error) {
    return helpErrorResult(error);
  }
}

function sitemapUrl(location: string, lastModified: Date | undefined): string {
  const lastmod = lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : "";
  return `  <url><loc>${escapeXml(location)}</loc>${lastmod}</url>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
