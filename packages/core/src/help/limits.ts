// The limits of the help centre and its API: lists, caching, excerpts, sitemaps, article feedback.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

export const HELP_ARTICLES_PER_LIST = 50;
/** The articles a search that found nothing offers instead (the most read). */
export const HELP_POPULAR_ARTICLES = 5;
/** Help responses may be cached this long; nothing server-side keeps hidden items longer. */
export const HELP_CACHE_SECONDS = 30;
export const HELP_CACHE_CONTROL = `private, max-age=${HELP_CACHE_SECONDS}`;
/** Length of a help excerpt, in characters (about). */
export const HELP_EXCERPT_CHARS = 200;
/** Articles listed in one help sitemap (the sitemap protocol's maximum). */
export const HELP_SITEMAP_MAX_URLS = 50_000;
/** "Was this helpful?" votes per minute per client IP (one vote per visitor, article and day is kept). */
export const ARTICLE_FEEDBACK_PER_MINUTE = 10;
