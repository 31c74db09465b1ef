// Numeric limits of the spec (section 8) and of our own choosing, each stated once.

/** Send-message requests per minute per agent. */
export const MESSAGES_PER_MINUTE = 30;
/** Help-route requests per minute per client IP and agent. */
export const HELP_REQUESTS_PER_MINUTE = 30;
/** Failed bearer-key attempts per minute per client IP (brute-force guard). */
export const FAILED_KEY_ATTEMPTS_PER_MINUTE = 10;
/** Failed panel sign-ins per 15 minutes per email and IP. */
export const FAILED_SIGN_INS_PER_WINDOW = 5;

export const MESSAGE_MAX_CHARS = 10_000;
export const CLIENT_VARIABLES_MAX_KEYS = 50;
export const CLIENT_VARIABLE_VALUE_MAX_CHARS = 1_024;
export const VISITOR_NAME_MAX_CHARS = 200;
/** The longest valid email address (RFC 5321 path limit). */
export const VISITOR_EMAIL_MAX_CHARS = 254;
/** Largest accepted send-message body, in bytes. */
export const MESSAGE_BODY_MAX_BYTES = 64 * 1024;
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;
export const IDEMPOTENCY_TTL_HOURS = 24;
/** Earlier messages of a conversation given to the engine on each turn (the most recent ones). */
export const TURN_HISTORY_MESSAGES = 40;
/** Knowledge agent: articles retrieved per question (the best answers, the rest are related links). */
export const KNOWLEDGE_SEARCH_RESULTS = 3;
/** Knowledge agent: longest passage quoted from the best article (whole sentences), in characters. */
export const KNOWLEDGE_ANSWER_MAX_CHARS = 600;
/** Knowledge agent: the first this many distinct words of a message are searched for. */
export const KNOWLEDGE_QUERY_MAX_WORDS = 32;

export const HELP_QUERY_MAX_CHARS = 100;
export const HELP_ARTICLES_PER_LIST = 50;
/** Help responses may be cached this long; nothing server-side keeps hidden items longer. */
export const HELP_CACHE_SECONDS = 30;
export const HELP_CACHE_CONTROL = `private, max-age=${HELP_CACHE_SECONDS}`;
/** Length of a help excerpt, in characters (about). */
export const HELP_EXCERPT_CHARS = 200;
/** Relevance search ranks at most this many word matches (the newest), so a common word costs a bounded amount. */
export const HELP_RANK_CANDIDATES = 500;
/** Articles listed in one help sitemap (the sitemap protocol's maximum). */
export const HELP_SITEMAP_MAX_URLS = 50_000;

/** LLM agent: model calls per turn (tool results go back to the model), articles per search, article characters per tool result. */
export const LLM_MAX_STEPS = 4;
export const LLM_SEARCH_RESULTS = 3;
export const LLM_ARTICLE_CHARS = 1_500;

/** Control panel: lengths of names (agents, sources), article titles and bodies, agent instructions. */
export const NAME_MAX_CHARS = 100;
export const ARTICLE_TITLE_MAX_CHARS = 200;
export const ARTICLE_CONTENT_MAX_CHARS = 100_000;
export const AGENT_INSTRUCTIONS_MAX_CHARS = 10_000;
export const AGENT_ALLOWED_ORIGINS_MAX = 50;
/** Control panel lists: conversations per page (default, most), articles per list, days of the usage chart (most). */
export const PANEL_CONVERSATIONS_PER_PAGE = 50;
export const PANEL_CONVERSATIONS_MAX_PER_PAGE = 100;
export const PANEL_ARTICLES_MAX_PER_LIST = 500;
export const USAGE_DAILY_MAX_DAYS = 90;
