// What the help centre's search page (/help/{agent}/search?q=) shows: the query as the JSON route
// reads it (trimmed, at most HELP_QUERY_MAX_CHARS), the articles best first (searchHelpCentre, the
// route's `sort=relevance`), a "Did you mean" when a word matched only as a typo's correction, and
// whether the list is only the closest matches (no article holds every word).
import type { Database } from "@parley/db";
import type { ArticleHit } from "../knowledge/search/database-search.ts";
import { searchHelpCentre } from "../knowledge/search/help-search.ts";
import { parseArticleListQuery } from "./articles.ts";
import { HELP_ARTICLES_PER_LIST } from "./limits.ts";
import { helpPaths } from "./urls.ts";

export interface HelpSearchPage {
  /** The query, trimmed ("" before a search). */
  query: string;
  /** The query breaks the route's length rule: nothing is searched. */
  tooLong: boolean;
  /** At most HELP_ARTICLES_PER_LIST, best match first. */
  articles: ArticleHit[];
  /** The query with its typos corrected and the address of its search, or null. */
  suggestion: { query: string; href: string } | null;
  /** The articles are the closest matches only: none holds every word of the query. */
  closestOnly: boolean;
}

/** The search page's content for the raw `q` of its address. */
export async function helpSearchPage(db: Database, agentId: string, rawQuery: string): Promise<HelpSearchPage> {
  let query: string;
  try {
    query = parseArticleListQuery(new URLSearchParams({ q: rawQuery })).q;
  } catch {
    return { query: rawQuery.trim(), tooLong: true, articles: [], suggestion: null, closestOnly: false };
  }
  if (!query) return { query, tooLong: false, articles: [], suggestion: null, closestOnly: false };
  const found = await searchHelpCentre(db, agentId, query, { limit: HELP_ARTICLES_PER_LIST, order: "relevance" });
  const corrected = found.correctedQuery;
  return {
    query,
    tooLong: false,
    articles: found.articles,
    suggestion: corrected && corrected !== query ? { query: corrected, href: helpPaths.search(agentId, corrected) } : null,
    closestOnly: found.articles.length > 0 && !found.everyWord,
  };
}
