// What the help pages read, through the same core functions as the JSON routes (one visibility
// rule). Wrapped in React's per-request cache so generateMetadata and the page share one query.
import { logger } from "@parley/core";
import {
  findHelpBrand,
  getCollection,
  helpLanguageFilter,
  helpSearchPage,
  listCollections,
  listHelpLanguages,
  listPopularArticles,
  listVisibleTranslations,
  recordEmptySearch,
  resolveHelpArticlePage,
} from "@parley/core/help";
import { searchHelpArticles } from "@parley/core/knowledge";
import { headers } from "next/headers";
import { notFound, permanentRedirect } from "next/navigation";
import { cache } from "react";
import { getAppContext } from "~/server/context.ts";
import { requestClientIp } from "~/server/http/request.ts";

/** The help centre's brand (its public name and look); renders the 404 page when the agent is unknown or inactive. */
export const loadHelpAgent = cache(async (agentId: string) => {
  const ctx = await getAppContext();
  return (await findHelpBrand(ctx.db, agentId)) ?? notFound();
});

export const loadCollections = cache(async (agentId: string, language?: HelpListLanguage) =>
  listCollections((await getAppContext()).db, agentId, language),
);

/** A visible collection (its count of one language's articles, when given); renders the 404 page otherwise. */
export const loadCollection = cache(async (agentId: string, sourceId: string, language?: HelpListLanguage) => {
  return (await getCollection((await getAppContext()).db, agentId, sourceId, language)) ?? notFound();
});

/** A list's language filter (the whole help centre, or one collection) and the `lang` it applies. */
export const loadLanguageFilter = cache(async (agentId: string, requested: unknown, sourceId?: string) =>
  helpLanguageFilter(await listHelpLanguages((await getAppContext()).db, agentId, sourceId), requested),
);

/** The visible language versions of an article (empty when it is in one language only). */
export const loadTranslations = cache(async (agentId: string, articleId: string) =>
  listVisibleTranslations((await getAppContext()).db, agentId, articleId),
);

/**
 * A visible article by slug. An old address by id answers 308 to the slug's; anything else renders
 * the 404 page (hidden and unknown look the same).
 */
export const loadArticle = cache(async (agentId: string, slugOrId: string) => {
  const page = await resolveHelpArticlePage((await getAppContext()).db, agentId, slugOrId);
  if ("redirectTo" in page) permanentRedirect(page.redirectTo);
  return "article" in page ? page.article : notFound();
});

type HelpListLanguage = Parameters<typeof searchHelpArticles>[3]["language"];

/** The lists' articles: without a query, most recently updated first (with one, best match first). */
export const loadArticles = cache(
  async (agentId: string, query: string, limit: number, sourceId?: string, offset?: number, language?: HelpListLanguage) =>
    searchHelpArticles((await getAppContext()).db, agentId, query, { limit, sourceId, offset, language }),
);

/** The search page's content: the articles best first, "Did you mean", closest matches only (core decides). */
export const loadSearchPage = cache(async (agentId: string, rawQuery: string) =>
  helpSearchPage((await getAppContext()).db, agentId, rawQuery),
);

/** What a search that found nothing offers instead: the most read articles (core decides how they are counted). */
export const loadPopularArticles = cache(async (agentId: string) => {
  const ctx = await getAppContext();
  return listPopularArticles(ctx.db, agentId, undefined, ctx.now());
});

/**
 * The article page was shown: one view for core's counter (in memory; the scheduler stores it). A
 * router prefetch is no view: nobody has opened the article yet.
 */
export async function countArticleView(agentId: string, articleId: string): Promise<void> {
  const ctx = await getAppContext();
  const requestHeaders = await headers();
  if (
    requestHeaders.get("next-router-prefetch") ||
    /prefetch/i.test(requestHeaders.get("sec-purpose") ?? requestHeaders.get("purpose") ?? "")
  ) {
    return;
  }
  ctx.articleViews?.record({
    agentId,
    articleId,
    clientIp: requestClientIp({ headers: requestHeaders }, ctx.trustProxy),
    userAgent: requestHeaders.get("user-agent"),
  });
}

export async function appUrl(): Promise<string> {
  return (await getAppContext()).appUrl;
}

/** A search that found nothing is a knowledge gap (the page shows either way: a failure is only logged). */
export async function recordSearchGap(agentId: string, query: string): Promise<void> {
  const ctx = await getAppContext();
  try {
    await recordEmptySearch(ctx, { agentId, query, clientIp: requestClientIp({ headers: await headers() }, ctx.trustProxy) });
  } catch (error) {
    logger.error("recording an empty help search failed", { agentId, error: error instanceof Error ? error.message : String(error) });
  }
}
