// The server entry's first look at a request target. Next answers a path it cannot percent-decode
// with a plain-text 500 before any route runs, and decoded text the database cannot store (a NUL)
// would reach PostgreSQL (another 500). No Parley path holds either: server.mjs answers such a
// request target 400 with the API's error body. Plain JavaScript, because server.mjs loads it as is.
import { isUnstorableText, UNSTORABLE_TEXT_RULE } from "@parley/core/storable-text";

export const MALFORMED_PATH_DETAILS = `path: ${UNSTORABLE_TEXT_RULE} (percent-encoded as UTF-8)`;

/** True when the path of `url` (before any query or fragment) does not decode to storable text. */
export function malformedPath(url = "/") {
  const end = url.search(/[?#]/);
  try {
    return isUnstorableText(decodeURIComponent(end === -1 ? url : url.slice(0, end)));
  } catch {
    return true;
  }
}
