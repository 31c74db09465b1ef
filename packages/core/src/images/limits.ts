// Uploaded images' limits, each stated once (the upload route, the panel's hints and the tests read them here).

/** The largest image one upload may be: a screenshot or a logo, not a photo library. */
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Uploads one person may make per hour (articles' pictures and logos together). */
export const IMAGE_UPLOADS_PER_HOUR = 60;
/** How long browsers and caches keep an image: its name is its content's hash, so it never changes. */
export const IMAGE_CACHE_SECONDS = 365 * 24 * 3600;
/**
 * Image reads from one address per minute: a reader's browser fetches each picture once (it is
 * cached for a year), so this only stops one client pulling large images from the database in a loop.
 */
export const IMAGE_READS_PER_IP_PER_MINUTE = 300;
