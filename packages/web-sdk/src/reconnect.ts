// When the SDK tries the socket again after it closed: the one home of the backoff's numbers (the
// widget shows the wait they give, "trying again in 8 s").

/** Backoff for a socket that closed (server down, refused, too many connections): doubles from the first delay up to the cap. */
export const RECONNECT_INITIAL_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 30_000;
/**
 * After 1001 (the server is going away: a restart or a deploy) the next try comes soon, spread
 * over this many ms so that every visitor of the instance does not come back in the same instant.
 */
export const GOING_AWAY_MAX_DELAY_MS = 1_000;
/** Each wait is the doubled delay times a random factor in 1 ± JITTER (never above the cap). */
export const RECONNECT_JITTER = 0.2;

/** The close code of a server shutting down gracefully ("Server shutting down"). */
export const GOING_AWAY_CLOSE_CODE = 1001;

export interface ReconnectSchedule {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT_SCHEDULE: ReconnectSchedule = {
  initialDelayMs: RECONNECT_INITIAL_DELAY_MS,
  maxDelayMs: RECONNECT_MAX_DELAY_MS,
};

/**
 * How long to wait before try number `attempt + 1` (attempt 0: the first try after a close),
 * in whole ms. `random` is in [0, 1) (Math.random; fixed in tests).
 */
export function reconnectDelay(
  attempt: number,
  closeCode: number | undefined,
  schedule: ReconnectSchedule = DEFAULT_RECONNECT_SCHEDULE,
  random: () => number = Math.random,
): number {
  if (closeCode === GOING_AWAY_CLOSE_CODE) return Math.round(random() * GOING_AWAY_MAX_DELAY_MS);
  // 2 ** attempt grows without bound; the exponent past the cap changes nothing.
  const doubled = schedule.initialDelayMs * 2 ** Math.min(attempt, 30);
  const base = Math.min(schedule.maxDelayMs, doubled);
  const jittered = base * (1 - RECONNECT_JITTER + random() * 2 * RECONNECT_JITTER);
  return Math.round(Math.min(schedule.maxDelayMs, jittered));
}
