// The public help centre: which agents and articles a visitor may see (visibility.ts, one rule
// for the JSON routes and the pages), collections, article lists and search, excerpts. The pages'
// addresses are @parley/core/help-urls (plain functions, for the browser too).
export { type ArticleSummary, getVisibleArticle, listArticleSummaries, parseArticleListQuery } from "./articles.ts";
export { getCollection, type HelpCollection, listCollections } from "./collections.ts";
export { excerpt, highlight } from "./excerpt.ts";
export { markdownToPlainText } from "./plain-text.ts";
export { helpArticleSchema } from "./schemas.ts";
export { type ArticleHit, listVisibleArticleDates, type SearchOptions, searchVisibleArticles } from "./search.ts";
export { findHelpAgent } from "./visibility.ts";
