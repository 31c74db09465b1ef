// The public help-centre JSON routes (spec 4.2 to 4.5). No authentication; every response, errors
// included, carries the help Cache-Control; each request counts against the per-IP-and-agent
// limit first, and the RateLimit headers ride on every response after that. Hidden and unknown
// things (agent, article) are all the same 404 `Not found`.
import type { AppContext } from "@parley/core";
import { AppError, isAppError } from "@parley/core";
import {
  findHelpAgent,
  getVisibleArticle,
  listArticleSummaries,
  listCollections,
  listVisibleArticleDates,
  parseArticleListQuery,
} from "@parley/core/help";
import { helpPaths } from "@parley/core/help-urls";
import { HELP_CACHE_CONTROL, HELP_SITEMAP_MAX_URLS } from "@parley/core/limits";
import { enforceRateLimit } from "@parley/core/ratelimit";
import { clientIp, errorResponse, handle, json } from "../rest.ts";

const CACHE_HEADERS = { "cache-control": HELP_CACHE_CONTROL };
/** A 429 or a 500 is not cached: a retry (after Retry-After) must reach the server again. */
const NO_STORE_HEADERS = { "cache-control": "no-store" };

function helpErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  const transient = !isAppError(error) || error.status === 429 || error.status >= 500;
  return errorResponse(error, { ...(transient ? NO_STORE_HEADERS : CACHE_HEADERS), ...headers });
}

/** GET /api/agent/{agentId}/help */
export function helpCollectionsRoute(ctx: AppContext, request: Request, params: { agentId: string }): Promise<Response> {
  return helpRoute(ctx, request, params.agentId, async () => {
    const collections = await listCollections(ctx.db, params.agentId);
    if (collections.length === 0) await requireHelpAgent(ctx, params.agentId);
    return json({ data: { collections } });
  });
}

/** GET /api/agent/{agentId}/help/articles?source=&q= */
export function helpArticlesRoute(ctx: AppContext, request: Request, params: { agentId: string }): Promise<Response> {
  return helpRoute(ctx, request, params.agentId, async () => {
    const query = parseArticleListQuery(new URL(request.url).searchParams);
    const articles = await listArticleSummaries(ctx.db, params.agentId, query);
    if (articles.length === 0) await requireHelpAgent(ctx, params.agentId);
    return json({ data: { articles } });
  });
}

/** GET /api/agent/{agentId}/help/articles/{itemId} */
export function helpArticleRoute(ctx: AppContext, request: Request, params: { agentId: string; itemId: string }): Promise<Response> {
  return helpRoute(ctx, request, params.agentId, async () => {
    const article = await getVisibleArticle(ctx.db, params.agentId, params.itemId);
    if (!article) throw new AppError("NOT_FOUND");
    return json({ data: { ...article, updatedAt: article.updatedAt.toISOString() } });
  });
}

/**
 * GET /help/{agentId}/sitemap.xml: the help centre's pages for search engines (home, collections,
 * visible articles with lastmod). Not rate limited (crawlers), same cache rule and 404.
 */
export function helpSitemapRoute(ctx: AppContext, request: Request, params: { agentId: string }): Promise<Response> {
  return handle(
    request,
    async () => {
      const agent = await findHelpAgent(ctx.db, params.agentId);
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
        ...articles.map((article) => sitemapUrl(ctx.appUrl + helpPaths.article(agent.id, article.id), article.updatedAt)),
      ];
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
      return new Response(xml, { headers: { "content-type": "application/xml; charset=utf-8" } });
    },
    CACHE_HEADERS,
  );
}

function sitemapUrl(location: string, lastModified: Date | undefined): string {
  const lastmod = lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : "";
  return `  <url><loc>${escapeXml(location)}</loc>${lastmod}</url>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Rate limit, then the route body; errors after the limit keep its headers. */
function helpRoute(ctx: AppContext, request: Request, agentId: string, body: () => Promise<Response>): Promise<Response> {
  return handle(
    request,
    async () => {
      let limitHeaders: Record<string, string>;
      try {
        limitHeaders = await enforceRateLimit(ctx.limiters.help, `${agentId}:${clientIp(request, ctx.trustProxy)}`);
      } catch (error) {
        return helpErrorResponse(error);
      }
      let response: Response;
      try {
        response = await body();
      } catch (error) {
        response = helpErrorResponse(error, limitHeaders);
      }
      for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
      return response;
    },
    CACHE_HEADERS,
  );
}

/**
 * An unknown or inactive agent is the same 404 as a hidden article. Anything visible proves the
 * agent visible, so it is only looked up when a read came back empty.
 */
async function requireHelpAgent(ctx: AppContext, agentId: string): Promise<void> {
  if (!(await findHelpAgent(ctx.db, agentId))) throw new AppError("NOT_FOUND");
}
