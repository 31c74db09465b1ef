// The limits of people: panel sessions, sign-in, invitations, passwords, the audit log.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** A panel session ends after this long without a request (each use moves the end forward); sign-out ends it at once. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
/** A session's lastSeenAt (and end) is written at most this often. */
export const SESSION_TOUCH_SECONDS = 60;
/** Characters of the User-Agent kept with a session. */
export const SESSION_USER_AGENT_MAX_CHARS = 500;
/** Password hashes computed at once in one process (each takes a thread of the pool and 32 MiB); more wait their turn. */
export const PASSWORD_CHECKS_AT_ONCE = 2;
/** Longest callbackUrl followed after signing in to the panel (a longer one goes to the panel's first page). */
export const CALLBACK_URL_MAX_CHARS = 2_048;

/** How long an invitation link to join the team stays valid. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Invitations a workspace may create per hour. */
export const INVITATIONS_PER_WORKSPACE_PER_HOUR = 30;
/** Attempts to open or accept an invitation link, per client IP per 15 minutes. */
export const INVITATION_ATTEMPTS_PER_IP_PER_WINDOW = 20;
/** Password changes (each checks the current password) per person per 15 minutes. */
export const PASSWORD_CHANGES_PER_WINDOW = 5;
/** "Sign out everywhere else" per person per 15 minutes. */
export const OTHER_SESSIONS_ENDS_PER_WINDOW = 10;
/** How long a password reset link ("Forgot password?") stays valid. */
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
/** Reset links asked for per client IP per 15 minutes (whatever the email). */
export const PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW = 10;
/** Reset links asked for per email address per hour (whether or not it has an account). */
export const PASSWORD_RESET_REQUESTS_PER_EMAIL_PER_HOUR = 3;
/** Attempts to open or use a reset link, per client IP per 15 minutes. */
export const PASSWORD_RESET_ATTEMPTS_PER_IP_PER_WINDOW = 20;
/** The shortest password a person may set (the seed's ADMIN_PASSWORD follows the same rule). */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 1_000;

/** The audit log's page in the panel ("Load more" fetches the next), and the most one request may ask for. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 100;
