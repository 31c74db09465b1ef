// The limits of the widget and SDK protocol over WebSocket: frames, hello, browser-side tools,
// tracking events, resume, connection slots. The per-agent rate limits are in limits.ts (the agent's
// settings' bounds: agents/limits.ts).
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

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
/** The page address a widget sends in `hello` (the visitor's identity in the inbox). */
export const WIDGET_PAGE_URL_MAX_CHARS = 2_048;
/** How often a live connection renews its slot (its time to live: platform/limits.ts). */
export const WIDGET_CONNECTION_SLOT_RENEW_MS = 30_000;
/**
 * A visitor message's `clientMessageId` (the widget's outbox resends a message under it until the
 * server acknowledges it; stored once per conversation): 1 to this many letters, digits, _ or -.
 * 100 is what the protocol accepted before the id was stored, so no client's ids grow too long.
 */
export const CLIENT_MESSAGE_ID_MAX_CHARS = 100;
export const CLIENT_MESSAGE_ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${CLIENT_MESSAGE_ID_MAX_CHARS}}$`);
export const CLIENT_MESSAGE_ID_RULE = `must be 1 to ${CLIENT_MESSAGE_ID_MAX_CHARS} letters, digits, _ or -`;
/**
 * The page's `startKey` (hello): a random secret the SDK makes for each page it runs in and never
 * stores, proving that a first message sent again comes from the page that sent it first. At least
 * 32 characters so that it cannot be guessed (the SDK sends 64 hex digits).
 */
export const START_KEY_MIN_CHARS = 32;
export const START_KEY_MAX_CHARS = 128;
export const START_KEY_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${START_KEY_MIN_CHARS},${START_KEY_MAX_CHARS}}$`);
export const START_KEY_RULE = `must be ${START_KEY_MIN_CHARS} to ${START_KEY_MAX_CHARS} letters, digits, _ or -`;
