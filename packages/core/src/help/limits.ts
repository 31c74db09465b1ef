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
/** One visitor (a hash of their address) counts one view of an article in this long, per instance. */
export const ARTICLE_VIEW_REPEAT_MINUTES = 30;
/** How often each instance adds the views it counted to the database (and once more at shutdown). */
export const ARTICLE_VIEWS_FLUSH_SECONDS = 5;
/** The visitors remembered for ARTICLE_VIEW_REPEAT_MINUTES at most; past it the oldest are forgotten first. */
export const ARTICLE_VIEW_VISITORS_MAX = 100_000;
/** The popular list ranks by the views of this many days (today included); older days are deleted. */
export const POPULAR_VIEWS_DAYS = 30;
