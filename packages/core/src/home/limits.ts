// The limits of the panel's home page.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** Panel home: escalations listed by name (the longest-waiting; the count covers all of them). */
export const HOME_WAITING_SHOWN = 10;
/** Panel home: a monthly counter at or past this share of its limit is "close to quota". */
export const HOME_NEAR_QUOTA_SHARE = 0.8;
