// The public help centre: which agents and articles a visitor may see (knowledge/visibility.ts, one rule
// for the JSON routes and the pages), the JSON routes and the sitemap, collections, article lists
// and search (the search page's content), an article's translations and the lists' language filter, excerpts, and the pages'
// addresses (also in @parley/core/browser).

export {
  type HelpAlternate,
  type HelpLanguageFilter,
  type HelpTranslation,
  helpLanguageFilter,
  listHelpLanguages,
  listSitemapAlternates,
  listVisibleTranslations,
} from "../knowledge/languages/translations.ts";
export { HELP_CACHE_HEADERS, type HelpRequest, helpArticle, helpArticles, helpCollections, helpErrorResult } from "./api.ts";
export {
  type ArticleSummary,
  getVisibleArticle,
  getVisibleArticleBySlug,
  getVisibleArticleSlug,
  type HelpArticlePage,
  type HelpPageArticle,
  listArticleSummaries,
  parseArticleListQuery,
  resolveHelpArticlePage,
} from "./articles.ts";
export { findHelpBrand, type HelpBrand } from "./brand.ts";
export { getCollection, type HelpCollection, listCollections } from "./collections.ts";
export type { HelpContext } from "./context.ts";
export { excerpt, highlight } from "./excerpt.ts";
export { articleFeedbackInput, recordEmptySearch, voteOnAnswer, voteOnArticle } from "./feedback.ts";
export { listPopularArticles } from "./popular.ts";
export { helpArticleSchema } from "./schemas.ts";
export { type HelpSearchPage, helpSearchPage } from "./search-page.ts";
export { helpSitemap } from "./sitemap.ts";
export { helpArticleUrl, helpPaths } from "./urls.ts";
export { type ArticleView, ArticleViewCounter, articleViewsTask, isCrawler } from "./views.ts";
