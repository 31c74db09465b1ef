// The limits of conversations: messages and what they carry, notes and saved replies, the inbox
// (lists, search, export, live stream), the visitor's data and retention.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

export const MESSAGE_MAX_CHARS = 10_000;
export const CLIENT_VARIABLES_MAX_KEYS = 50;
export const CLIENT_VARIABLE_VALUE_MAX_CHARS = 1_024;
export const VISITOR_NAME_MAX_CHARS = 200;
/** The longest valid email address (RFC 5321 path limit). */
export const VISITOR_EMAIL_MAX_CHARS = 254;
/** Largest accepted send-message body, in bytes. */
export const MESSAGE_BODY_MAX_BYTES = 64 * 1024;
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

/** Internal notes on conversations: longest note. Saved replies: longest title. */
export const NOTE_MAX_CHARS = 5_000;
export const SAVED_REPLY_TITLE_MAX_CHARS = 80;

/** Inbox export: conversations read per page, and the most one search's export holds. */
export const INBOX_EXPORT_PAGE = 200;
export const INBOX_EXPORT_MAX_CONVERSATIONS = 200_000;
/** Exports a person may start per hour (each reads the whole filtered inbox). */
export const INBOX_EXPORTS_PER_HOUR = 20;

/** Control panel lists: conversations per page (default, most). */
export const PANEL_CONVERSATIONS_PER_PAGE = 50;
export const PANEL_CONVERSATIONS_MAX_PER_PAGE = 100;
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
/**
 * The person's open assigned conversations the inbox counts return with their last visitor message
 * (most recently active first), for the panel's alerts (counts.ts); the counts are exact regardless.
 */
export const INBOX_ATTENTION_MAX = 50;
/** The visitor's data: exports a person may download per hour, and erasures a person may run per hour. */
export const VISITOR_DATA_EXPORTS_PER_HOUR = 30;
export const VISITOR_ERASURES_PER_HOUR = 60;
/** Conversations read or erased per step (an email address may have many). */
export const VISITOR_DATA_PAGE = 100;
/** How often the retention pass runs across all instances, and the most conversations one pass erases. */
export const RETENTION_INTERVAL_MS = 3_600_000;
export const RETENTION_MAX_PER_PASS = 5_000;
/**
 * "A person will reply here; usually within N minutes": N is the median first reply over the
 * workspace's latest handoffs (at most this many, of the last this many days) that a person
 * answered, given only when at least this many were.
 */
export const HANDOFF_REPLY_TIME_SAMPLES = 200;
export const HANDOFF_REPLY_TIME_WINDOW_DAYS = 30;
export const HANDOFF_REPLY_TIME_MIN_SAMPLES = 5;
/**
 * The visitor's rating of a resolved conversation: the longest comment, how long after first
 * rating it the visitor may change it (a slip of the finger, a second thought; after that the
 * rating stands until the conversation is resolved again), and the ratings one IP may send per minute.
 */
export const RATING_COMMENT_MAX_CHARS = 1_000;
export const RATING_CHANGE_WINDOW_MINUTES = 60;
export const RATINGS_PER_MINUTE = 10;
/**
 * Reaching the visitor by email (visitor-email.ts): how long after the
 * visitor's last message with no person's reply the widget asks for one (also asked on handoff);
 * how long a widget socket counts the visitor as present without renewing it; how long replies
 * written while the visitor is away wait to go out in one mail (a person writing three lines
 * sends one mail, not three); how often the mail task looks for due mails; addresses one IP may
 * give per minute; transcripts one conversation may have mailed per hour.
 */
export const VISITOR_EMAIL_PROMPT_AFTER_MS = 3 * 60_000;
export const VISITOR_PRESENCE_TTL_MS = 90_000;
export const VISITOR_MAIL_BATCH_MS = 2 * 60_000;
export const VISITOR_MAIL_TASK_INTERVAL_MS = 15_000;
export const VISITOR_EMAILS_PER_MINUTE = 5;
export const TRANSCRIPTS_PER_HOUR = 3;
/** Messages a transcript mail carries at most (the latest). */
export const TRANSCRIPT_MAX_MESSAGES = 200;
/**
 * How long after a conversation started its first message, sent again by the same page (same
 * startKey and clientMessageId, same text), joins it instead of starting another. The SDK sends it
 * again as soon as its next socket is ready, and its reconnect backoff stays under 30 s, so a page
 * that is online comes back within a minute; 10 minutes also covers a short outage or a sleeping
 * laptop. Beyond, the key grants nothing (a bearer secret lets its holder into the conversation
 * no longer than that is useful), and the message starts a new conversation like any first one.
 */
export const FIRST_MESSAGE_RESEND_WINDOW_MS = 10 * 60_000;
