// Numeric limits of the spec (section 8) and of our own choosing, each stated once.
import { routedPath } from "./request-path.mjs";

/** Send-message requests per minute per agent. */
export const MESSAGES_PER_MINUTE = 30;
/** Help-route requests per minute per client IP and agent. */
export const HELP_REQUESTS_PER_MINUTE = 30;
/** Failed bearer-key attempts per minute per client IP (brute-force guard). */
export const FAILED_KEY_ATTEMPTS_PER_MINUTE = 10;
/** Failed panel sign-ins per 15 minutes per email and IP. */
export const FAILED_SIGN_INS_PER_WINDOW = 5;
/** Failed panel sign-ins per 15 minutes per IP, whatever the emails (a separate budget). */
export const FAILED_SIGN_INS_PER_IP_PER_WINDOW = 20;
/** A panel session ends after this long without a request (each use moves the end forward); sign-out ends it at once. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
/** A session's lastSeenAt (and end) is written at most this often. */
export const SESSION_TOUCH_SECONDS = 60;
/** Characters of the User-Agent kept with a session. */
export const SESSION_USER_AGENT_MAX_CHARS = 500;
/** Password hashes computed at once in one process (each takes a thread of the pool and 32 MiB); more wait their turn. */
export const PASSWORD_CHECKS_AT_ONCE = 2;

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

export const HELP_QUERY_MAX_CHARS = 100;
export const HELP_ARTICLES_PER_LIST = 50;
/** Help responses may be cached this long; nothing server-side keeps hidden items longer. */
export const HELP_CACHE_SECONDS = 30;
export const HELP_CACHE_CONTROL = `private, max-age=${HELP_CACHE_SECONDS}`;
/** Length of a help excerpt, in characters (about). */
export const HELP_EXCERPT_CHARS = 200;
/** Relevance search ranks at most this many word matches (the newest), so a common word costs a bounded amount. */
export const HELP_RANK_CANDIDATES = 100;
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
/** Articles one source may hold (a help centre with more spreads them over several sources). */
export const ARTICLES_PER_SOURCE_MAX = 20_000;
/** An article's slug (its help page address part). Generated ones are shorter, leaving room for -2, -3 ... */
export const ARTICLE_SLUG_MAX_CHARS = 120;
export const ARTICLE_SLUG_GENERATED_MAX_CHARS = 100;
export const AGENT_INSTRUCTIONS_MAX_CHARS = 10_000;
export const AGENT_ALLOWED_ORIGINS_MAX = 50;
/** An agent's own synonym groups for the knowledge search: one group a line, phrases separated by commas. */
export const KNOWLEDGE_SYNONYMS_MAX_CHARS = 20_000;
export const KNOWLEDGE_SYNONYM_GROUPS_MAX = 500;

// Request bodies, by path: the server entry counts each body's bytes before anything reads it and
// refuses a larger one with 413 (declared by Content-Length, or as a chunked body grows).
/** Sign-in and the other next-auth routes: email, a password of up to 1,000 characters form-encoded (9 bytes each at most), CSRF token, callback URL. */
export const AUTH_BODY_MAX_BYTES = 16 * 1024;
/** tRPC: its largest input is an article, whose content may take 6 bytes a character as JSON (\u escapes), with its title and fields. */
export const TRPC_BODY_MAX_BYTES = ARTICLE_CONTENT_MAX_CHARS * 6 + 64 * 1024;
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
/** Every other path (pages, help, keys, health): none takes a body of its own. */
export const DEFAULT_BODY_MAX_BYTES = 16 * 1024;
/**
 * The largest body per path prefix. `null`: the route reads its own body as a stream within its
 * limit, in the order its errors must come (the messages API checks the key before the body, and
 * answers an oversized body with the spec's 400 `Invalid request`, MESSAGE_BODY_MAX_BYTES).
 */
const BODY_LIMITS: ReadonlyArray<readonly [pathPrefix: string, bytes: number | null]> = [
  ["/api/auth/", AUTH_BODY_MAX_BYTES],
  ["/api/trpc/", TRPC_BODY_MAX_BYTES],
  ["/api/agent/", null],
  ["/api/panel/imports", null],
];

/**
 * The largest request body the server entry lets through on a path (without its query); null when
 * the route limits it itself. Chosen by the path as routing reads it, so that no spelling of it
 * (`/api/agent/../auth/...`) escapes the limit of the route that answers.
 */
export function bodyLimitForPath(pathname: string): number | null {
  const routed = routedPath(pathname);
  const entry = BODY_LIMITS.find(([prefix]) => routed.startsWith(prefix));
  return entry ? entry[1] : DEFAULT_BODY_MAX_BYTES;
}

/** Internal notes on conversations: longest note. Saved replies: per workspace, longest title. */
export const NOTE_MAX_CHARS = 5_000;
export const SAVED_REPLIES_MAX = 200;
export const SAVED_REPLY_TITLE_MAX_CHARS = 80;

/** Inbox export: conversations read per page, and the most one search's export holds. */
export const INBOX_EXPORT_PAGE = 200;
export const INBOX_EXPORT_MAX_CONVERSATIONS = 200_000;
/** Exports a person may start per hour (each reads the whole filtered inbox). */
export const INBOX_EXPORTS_PER_HOUR = 20;

/** Control panel lists: conversations per page (default, most), articles per list, days of the usage chart (most). */
export const PANEL_CONVERSATIONS_PER_PAGE = 50;
export const PANEL_CONVERSATIONS_MAX_PER_PAGE = 100;
export const PANEL_ARTICLES_MAX_PER_LIST = 500;
/** Calls one tRPC batch request may hold (the panel's client batches at most this many). */
export const PANEL_BATCH_CALLS_MAX = 10;
export const USAGE_DAILY_MAX_DAYS = 90;
/** Panel home: escalations listed by name (the longest-waiting; the count covers all of them). */
export const HOME_WAITING_SHOWN = 10;
/** Panel home: a monthly counter at or past this share of its limit is "close to quota". */
export const HOME_NEAR_QUOTA_SHARE = 0.8;
/** Longest callbackUrl followed after signing in to the panel (a longer one goes to the panel's first page). */
export const CALLBACK_URL_MAX_CHARS = 2_048;

/** Webhooks: endpoints per workspace, URL length, description length. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
export const WEBHOOK_URL_MAX_CHARS = 2_048;
export const WEBHOOK_DESCRIPTION_MAX_CHARS = 200;
/** Webhooks: random bytes of a signing secret ("whsec_" + their base64). */
export const WEBHOOK_SECRET_BYTES = 32;
/** Webhooks: how long the secret before a roll keeps signing too, in hours. */
export const WEBHOOK_SECRET_ROLL_HOURS = 24;
/** Webhooks: one attempt's timeout (connection, request and response), in milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Webhooks: the waits before each retry, in milliseconds (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery has failed). */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
/** Webhooks: each wait is randomised by up to this fraction either way (jitter). */
export const WEBHOOK_RETRY_JITTER = 0.1;
/** Webhooks: the longest Retry-After honoured, in milliseconds. */
export const WEBHOOK_RETRY_AFTER_MAX_MS = 24 * 3_600_000;
/** Webhooks: an endpoint failing for this long (no success in between) is disabled and flagged, in milliseconds. */
export const WEBHOOK_FAILING_DISABLE_MS = 3 * 24 * 3_600_000;
/** Webhooks: events (and their delivery log) are kept this many days. */
export const WEBHOOK_RETENTION_DAYS = 30;
/** Webhooks: characters of a response body kept in the delivery log. */
export const WEBHOOK_RESPONSE_EXCERPT_CHARS = 500;
/** Webhooks: delivery log lines per page in the panel. */
export const WEBHOOK_DELIVERIES_PER_PAGE = 50;

// Widget and SDK over WebSocket.
/** Largest frame a page may send (bytes); bigger frames close the connection with 1009. */
export const WIDGET_FRAME_MAX_BYTES = 64 * 1024;
/** The page must say hello within this time after connecting. */
export const WIDGET_HELLO_TIMEOUT_MS = 10_000;
/** How long a browser-side tool may take before the model gets an error result. */
export const WIDGET_TOOL_TIMEOUT_MS = 15_000;
/** Browser-side tools one page may register. */
export const WIDGET_TOOLS_MAX = 20;
export const WIDGET_TOOL_DESCRIPTION_MAX_CHARS = 1_000;
/** Bytes of one tool's JSON Schema, and of one tool result, as JSON. */
export const WIDGET_TOOL_SCHEMA_MAX_BYTES = 8 * 1024;
export const WIDGET_TOOL_RESULT_MAX_BYTES = 16 * 1024;
/** Tracking events: name length, property count and size. */
export const TRACK_EVENT_MAX_CHARS = 100;
export const TRACK_PROPERTIES_MAX_KEYS = 20;
export const TRACK_PROPERTIES_MAX_BYTES = 4 * 1024;
/** Tracking events one connection may send per minute (beyond: dropped with an error frame). */
export const TRACK_EVENTS_PER_MINUTE = 60;
/** How long a resume token lets a visitor come back to a conversation. */
export const WIDGET_RESUME_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
/** Messages of the conversation sent in `ready` on resume, newest last. */
export const WIDGET_RESUME_MESSAGES = 50;
/** Inbox search: query length, and the newest conversations checked before the whole word index. */
export const INBOX_SEARCH_MAX_CHARS = 200;
export const INBOX_SEARCH_WINDOW = 500;
/**
 * Inbox searches a person may run per minute, each call of a batch counted (listing without words
 * is free). Room for an open search that the live inbox refreshes (INBOX_LIVE_REFRESH_MS: every
 * loaded page, at most every 2 s) while the person types others.
 */
export const INBOX_SEARCHES_PER_MINUTE = 120;
/** The live inbox refreshes its lists at most this often, however many events arrive. */
export const INBOX_LIVE_REFRESH_MS = 2_000;
/** The panel's live stream: a keep-alive comment this often. */
export const INBOX_STREAM_HEARTBEAT_MS = 25_000;
/** The page address a widget sends in `hello` (the visitor's identity in the inbox). */
export const WIDGET_PAGE_URL_MAX_CHARS = 2_048;

// The widget's own limits (the HTTP API's per-agent limit is the HTTP API's alone). Each is set per
// agent in the panel, within these bounds; an agent without a setting has the default.
/** Concurrent widget connections per client IP and agent; one more is closed with 4429. */
export const WIDGET_CONNECTIONS_PER_IP = { default: 20, min: 1, max: 1_000 } as const;
/** Widget messages per connection per minute (a person types far slower). */
export const WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE = { default: 10, min: 1, max: 600 } as const;
/** Widget messages per client IP and agent per minute (several visitors behind one NAT). */
export const WIDGET_MESSAGES_PER_IP_PER_MINUTE = { default: 30, min: 1, max: 10_000 } as const;
/** New widget conversations per client IP and agent per hour. */
export const WIDGET_CONVERSATIONS_PER_IP_PER_HOUR = { default: 20, min: 1, max: 10_000 } as const;
/** The agent settings (Agent columns) of the four limits above. */
export const WIDGET_LIMIT_SETTINGS = {
  widgetConnectionsPerIp: WIDGET_CONNECTIONS_PER_IP,
  widgetMessagesPerConnectionPerMinute: WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE,
  widgetMessagesPerIpPerMinute: WIDGET_MESSAGES_PER_IP_PER_MINUTE,
  widgetConversationsPerIpPerHour: WIDGET_CONVERSATIONS_PER_IP_PER_HOUR,
} as const;
/** A widget connection's slot expires this long after its last renewal, so the slots of a crashed instance free themselves. */
export const WIDGET_CONNECTION_SLOT_TTL_MS = 90_000;
/** How often a live connection renews its slot. */
export const WIDGET_CONNECTION_SLOT_RENEW_MS = 30_000;

/** How long an invitation link to join the team stays valid. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Invitations a workspace may create per hour. */
export const INVITATIONS_PER_WORKSPACE_PER_HOUR = 30;
/** Attempts to open or accept an invitation link, per client IP per 15 minutes. */
export const INVITATION_ATTEMPTS_PER_IP_PER_WINDOW = 20;
/** Password changes (each checks the current password) per person per 15 minutes. */
export const PASSWORD_CHANGES_PER_WINDOW = 5;
/** The shortest password a person may set (the seed's ADMIN_PASSWORD follows the same rule). */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 1_000;

/** The audit log's page in the panel ("Load more" fetches the next), and the most one request may ask for. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 100;
/** The longest an SMTP connection, greeting or send may take before the email counts as not sent. */
export const MAIL_TIMEOUT_MS = 10_000;
/** The visitor's data: exports a person may download per hour, and erasures a person may run per hour. */
export const VISITOR_DATA_EXPORTS_PER_HOUR = 30;
export const VISITOR_ERASURES_PER_HOUR = 60;
/** Conversations read or erased per step (an email address may have many). */
export const VISITOR_DATA_PAGE = 100;
/** An agent's retention setting: erase conversations inactive for this many days (bounds). */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;
/** How often the retention pass runs across all instances, and the most conversations one pass erases. */
export const RETENTION_INTERVAL_MS = 3_600_000;
export const RETENTION_MAX_PER_PASS = 5_000;
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
/** "Was this helpful?" votes per minute per client IP (one vote per visitor, article and day is kept). */
export const ARTICLE_FEEDBACK_PER_MINUTE = 10;
/** Branding of an agent's help centre and widget (admin/branding.ts). */
export const BRANDING_NAME_MAX_CHARS = 60;
export const BRANDING_URL_MAX_CHARS = 500;
export const BRANDING_FOOTER_LABEL_MAX_CHARS = 40;
export const WIDGET_GREETING_MAX_CHARS = 500;
/** Suggested questions or articles the widget shows when it opens. */
export const WIDGET_SUGGESTIONS_MAX = 5;
export const WIDGET_SUGGESTION_MAX_CHARS = 120;
