// The public help-centre JSON routes (spec 4.2 to 4.5), whatever carries them: no authentication;
// every answer, errors included, carries the help Cache-Control (a 429 or 500 is never stored, so
// that a retry reaches the server); each request counts against the per-IP-and-agent limit (a
// refused one runs no read), and the RateLimit headers ride on every answer after that. Hidden and
// unknown things (agent, article) are all the same 404 `Not found`.

import { findHelpAgent } from "../knowledge/visibility.ts";
import { limitAddress } from "../platform/client-ip.ts";
import type { PlatformContext } from "../platform/context.ts";
import { AppError, isAppError } from "../platform/errors.ts";
import { LimitedWorkError, limitAlongside } from "../platform/ratelimit/index.ts";
import { errorResult, type HttpResult, jsonResult } from "../platform/results.ts";
import { getVisibleArticle, listArticleSummaries, parseArticleListQuery } from "./articles.ts";
import { listCollections } from "./collections.ts";
import type { HelpContext } from "./context.ts";
import { HELP_CACHE_CONTROL } from "./limits.ts";

export const HELP_CACHE_HEADERS = { "cache-control": HELP_CACHE_CONTROL };
const NO_STORE_HEADERS = { "cache-control": "no-store" };

/** Who asks: the agent of the path and the client's address (the limit's key). */
export interface HelpRequest {
  agentId: string;
  clientIp: string;
}

/** GET /api/agent/{agentId}/help */
export function helpCollections(ctx: PlatformContext, request: HelpRequest): Promise<HttpResult> {
  return limitedHelpRead(ctx, request, async () => {
    const collections = await listCollections(ctx.db, request.agentId);
    if (collections.length === 0) await requireHelpAgent(ctx, request.agentId);
    return { collections };
  });
}

/** GET /api/agent/{agentId}/help/articles?source=&q= */
export function helpArticles(ctx: PlatformContext, request: HelpRequest & { query: URLSearchParams }): Promise<HttpResult> {
  return limitedHelpRead(ctx, request, async () => {
    const articles = await listArticleSummaries(ctx.db, request.agentId, parseArticleListQuery(request.query));
    // The JSON lists and searches store nothing (an integrator's own search records its gaps);
    // the help centre's search page records the searches that found nothing.
    if (articles.length === 0) await requireHelpAgent(ctx, request.agentId);
    return { articles };
  });
}

/**
 * GET /api/agent/{agentId}/help/articles/{itemId}. A visible article answered with 200 counts as
 * a view, as the article's page does (the lists count none); counting never waits or fails a read.
 */
export async function helpArticle(
  ctx: HelpContext,
  request: HelpRequest & { itemId: string; userAgent?: string | null },
): Promise<HttpResult> {
  const shown = { articleId: "" };
  const result = await limitedHelpRead(ctx, request, async () => {
    const article = await getVisibleArticle(ctx.db, request.agentId, request.itemId);
    if (!article) throw new AppError("NOT_FOUND");
    shown.articleId = article.id;
    return { ...article, updatedAt: article.updatedAt.toISOString() };
  });
  if (result.status === 200 && shown.articleId) {
    ctx.articleViews?.record({
      agentId: request.agentId,
      articleId: shown.articleId,
      clientIp: request.clientIp,
      userAgent: request.userAgent ?? null,
    });
  }
  return result;
}

/** An error of a help route, with the cache rule that fits it. */
export function helpErrorResult(error: unknown, headers: Record<string, string> = {}): HttpResult {
  const transient = !isAppError(error) || error.status === 429 || error.status >= 500;
  return errorResult(error, { ...(transient ? NO_STORE_HEADERS : HELP_CACHE_HEADERS), ...headers });
}

/**
 * The rate limit and the read, as `{ data }` (the read runs alongside the limit's round trip while
 * the client has room, see limitAlongside); an error of the read keeps the limit's headers.
 */
async function limitedHelpRead(ctx: PlatformContext, request: HelpRequest, read: () => Promise<unknown>): Promise<HttpResult> {
  try {
    const { headers, value } = await limitAlongside(ctx.limiters.help, `${request.agentId}:${limitAddress(request.clientIp)}`, read);
    return jsonResult({ data: value }, 200, { ...HELP_CACHE_HEADERS, ...headers });
  } catch (error) {
    if (error instanceof LimitedWorkError) return helpErrorResult(error.cause, error.headers);
    return helpErrorResult(error);
  }
}

/**
 * An unknown or inactive agent is the same 404 as a hidden article. Anything visible proves the
 * agent visible, so it is only looked up when a read came back empty.
 */
async function requireHelpAgent(ctx: PlatformContext, agentId: string): Promise<void> {
  if (!(await findHelpAgent(ctx.db, agentId))) throw new AppError("NOT_FOUND");
}
