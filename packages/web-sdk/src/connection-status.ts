// What the widget tells the visitor while its socket is down, in plain words: why (too many chats
// from their network, the server out of reach, a restart) and when it tries again. The waits
// themselves come from the SDK's backoff (reconnect.ts).
import { GOING_AWAY_CLOSE_CODE } from "./reconnect.ts";

/** The server's refusal when the visitor's address holds as many connections as the agent allows. */
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 4429;

/** While a new try is under way (and after a restart, whose next try comes within a second). */
export const RECONNECTING_TEXT = "Reconnecting…";

/** Whole seconds, rounded up and at least 1: "in 0 s" would read as a broken promise. */
export function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export interface OfflineStatus {
  text: string;
  /** A "Try now" button is worth offering (not after a restart's 1001, whose try comes at once). */
  canRetryNow: boolean;
}

/** Why the chat is offline and when it tries again, for a socket closed with `code` whose next try is in `retryInMs`. */
export function offlineStatus(code: number | undefined, retryInMs: number): OfflineStatus {
  if (code === GOING_AWAY_CLOSE_CODE) return { text: RECONNECTING_TEXT, canRetryNow: false };
  const seconds = secondsUntil(retryInMs);
  if (code === TOO_MANY_CONNECTIONS_CLOSE_CODE)
    return { text: `Too many chats open from your network — trying again in ${seconds} s`, canRetryNow: true };
  return { text: `Can’t reach the chat right now — retrying in ${seconds} s`, canRetryNow: true };
}
