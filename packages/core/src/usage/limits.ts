// The limits of usage reporting.
// Plain constants with no imports but other limits files, so that the panel's client components may import them.

/** Control panel: days of the usage chart (most). */
export const USAGE_DAILY_MAX_DAYS = 90;
