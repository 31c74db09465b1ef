// The limits of knowledge: the passage index and its search, semantic retrieval, articles (slugs,
// history, scheduling, languages), imports and knowledge gaps.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/**
 * Knowledge agent: the first this many subject words of a question (with the previous visitor
 * message of a follow-up) are searched for; each is one bit of a 32-bit set.
 */
export const KNOWLEDGE_QUERY_MAX_WORDS = 31;
/**
 * The knowledge agent's in-process passage index holds at most this many of an agent's visible
 * articles, the most recently updated (about 5 MB of heap per 1,000 articles, twice that while a
 * rebuild keeps the previous index; the server's heap is capped at 256 MB by default, and 15,000
 * ran it out of memory in the bench at 100k articles): larger help centres are answered from
 * their newest articles.
 */
export const KNOWLEDGE_INDEX_MAX_ARTICLES = 5_000;
/**
 * The article text (title and content, in bytes) the in-process passage indexes of one instance
 * hold, all agents together. An index takes about four times its text in heap (the text, its
 * passages and postings: 7.8 MB of text, 5,000 generated articles, took 32 MB): about 35 MB at
 * most, within the server's heap cap (scripts/app-process.mjs). An index of more than half of it
 * is not kept while it is rebuilt (the turns meanwhile wait), so two of it are never held at
 * once; a smaller one answers them. An agent whose newest articles hold more is answered from the
 * database search instead (KNOWLEDGE_DATABASE_CANDIDATES); other agents' indexes are dropped,
 * least recently used first, to make room, and built again on their next turn.
 */
export const KNOWLEDGE_INDEX_MAX_TEXT_BYTES = 8 * 1024 * 1024;
/**
 * An agent over that budget: each question ranks the passages of at most this many articles that
 * the database's full-text search finds (any of its words), and this many such turns run at once
 * in an instance (others wait their turn), so its memory stays bounded.
 */
export const KNOWLEDGE_DATABASE_CANDIDATES = 10;
export const KNOWLEDGE_DATABASE_TURNS_AT_ONCE = 4;

// Semantic retrieval through an embeddings endpoint.
/** Embedding a visitor's question: past this the turn goes on with lexical retrieval alone, in milliseconds. */
export const EMBEDDINGS_QUERY_TIMEOUT_MS = 1_500;
/** The worker's embedding request for one article's passages, in milliseconds. */
export const EMBEDDINGS_WORKER_TIMEOUT_MS = 30_000;
/** Characters of a question embedded (the rest is dropped). */
export const EMBEDDINGS_QUERY_MAX_CHARS = 2_000;
/** Characters of a passage embedded (title, heading and text; the rest is dropped). */
export const EMBEDDINGS_PASSAGE_MAX_CHARS = 8_000;
/** Articles the worker embeds per pass (claimed together, each its own request). */
export const EMBEDDINGS_ARTICLES_PER_PASS = 16;
/** Waits before each retry of a failed article, in milliseconds (then the last wait repeats). */
export const EMBEDDINGS_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 3_600_000] as const;
/** The worker looks for unchanged-signature work anyway this often (other instances' retries), in milliseconds. */
export const EMBEDDINGS_RESCAN_MS = 60_000;
/** How often a query checks the database for passages another instance wrote, at most, in milliseconds. */
export const EMBEDDINGS_SYNC_INTERVAL_MS = 1_000;
/** Deleted passages are remembered this long for other instances' indexes (one away longer reloads), in milliseconds. */
export const EMBEDDINGS_DELETIONS_KEPT_MS = 24 * 3_600_000;
/** Stored vectors given their pgvector value per worker pass (rows from before pgvector was installed). */
export const EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS = 500;

/** A help search's query length (the help centre's, and the panel's article search). */
export const HELP_QUERY_MAX_CHARS = 100;
/** Relevance search ranks at most this many word matches (the newest), so a common word costs a bounded amount. */
export const HELP_RANK_CANDIDATES = 100;
/**
 * When no article holds every word of a help search, the closest matches listed: the best this
 * many by relevance (then in the order asked), so a most-recent-first list is not filled with
 * articles sharing only one common word.
 */
export const HELP_CLOSEST_MATCHES = 10;
/** An article's slug (its help page address part). Generated ones are shorter, leaving room for -2, -3 ... */
export const ARTICLE_SLUG_MAX_CHARS = 120;
export const ARTICLE_SLUG_GENERATED_MAX_CHARS = 100;
/** Article imports: the upload (a zip, a JSON export or a URL list), what a zip may hold, how often. */
export const IMPORT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_ZIP_MAX_FILES = 20_000;
export const IMPORT_URLS_MAX = 1_000;
/** A fetched page or sitemap is cut off (and fails) beyond this. */
export const IMPORT_PAGE_MAX_BYTES = 2 * 1024 * 1024;
/** One page, every redirect and address lookup included. */
export const IMPORT_FETCH_TIMEOUT_MS = 15_000;
export const IMPORT_FETCH_MAX_REDIRECTS = 3;
/** Pages of one URL import fetched at once (the report keeps the list's order). */
export const IMPORT_FETCH_CONCURRENCY = 4;
/**
 * How long one import may run; the items left then are reported as not imported and the job ends.
 * 1,000 URLs at 4 at once fit when pages answer within 3.6 s on average; a 20,000-file zip takes
 * about 5 minutes.
 */
export const IMPORT_TIME_BUDGET_MS = 15 * 60_000;
/** Imports one instance runs at once; across instances, one per workspace at a time. */
export const IMPORT_JOBS_AT_ONCE = 2;
export const IMPORTS_PER_HOUR = 10;
/** How long the worker's claim on a running import holds without progress (it renews as it goes). */
export const IMPORT_LEASE_MS = 120_000;
/** Progress is written after this many items (and when the job ends). */
export const IMPORT_PROGRESS_EVERY = 25;
/** Control panel lists: articles per list (most). */
export const PANEL_ARTICLES_MAX_PER_LIST = 500;
/** Article history: revisions listed in the editor (the newest; older ones stay stored). */
export const ARTICLE_REVISIONS_PER_LIST = 50;
/** Scheduled publication: at most this far ahead. */
export const ARTICLE_SCHEDULE_MAX_DAYS = 366;
/** Scheduled publications the worker publishes per pass (the rest on the next pass). */
export const SCHEDULED_PUBLICATIONS_PER_PASS = 100;
/** Articles whose language the worker detects per pass (older articles; every save detects its own). */
export const DETECTED_LANGUAGES_PER_PASS = 200;
/** Characters of a visitor's unanswered question that are kept (visitor data: bounded). */
export const KNOWLEDGE_GAP_QUESTION_MAX_CHARS = 500;
/** The gaps page: groups of similar questions shown (the most frequent of the last 30 days). */
export const KNOWLEDGE_GAP_GROUPS_SHOWN = 100;
/** The gaps page: distinct wordings read (the most asked first) before near-duplicates are merged into groups. */
export const KNOWLEDGE_GAP_KEYS_READ = 2000;
/** The gaps page: other wordings shown under a group's question. */
export const KNOWLEDGE_GAP_VARIANTS_SHOWN = 3;
