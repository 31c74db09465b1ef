// The server entry's first look at a request target, before anything chooses by path (the body
// caps, the route table, Next's routing). Next answers a path it cannot percent-decode with a
// plain-text 500 before any route runs, and decoded text the database cannot store (a NUL) would
// reach PostgreSQL (another 500). A path with a dot segment, a backslash or a doubled slash routes
// elsewhere than it reads, so a cap chosen by it would be another route's. No Parley path holds
// any of these: server.mjs answers such a request target 400 with the API's error body, except
// doubled slashes and backslashes written as such (a base URL's trailing slash, an old link),
// which get the 308 to the path with one slash that Next always gave them. Either way the body is
// never read. Plain JavaScript, because server.mjs loads it as is.
import { randomUUID } from "node:crypto";
import { isAmbiguousPath, PATH_SEGMENTS_RULE, targetPath } from "@parley/core/request-path";
import { isUnstorableText, UNSTORABLE_TEXT_RULE } from "@parley/core/storable-text";
import { closeAfterAnswer } from "./body-limited-request.mjs";

export const MALFORMED_PATH_DETAILS = `path: ${UNSTORABLE_TEXT_RULE} (percent-encoded as UTF-8)`;
export const AMBIGUOUS_PATH_DETAILS = `path: ${PATH_SEGMENTS_RULE}`;

/** The `details` of the 400 for the path of `url` (before any query or fragment), or null when it is fine. */
export function pathRefusal(url = "/") {
  let decoded;
  try {
    decoded = decodeURIComponent(targetPath(url));
  } catch {
    return MALFORMED_PATH_DETAILS;
  }
  if (isUnstorableText(decoded)) return MALFORMED_PATH_DETAILS;
  return isAmbiguousPath(decoded) ? AMBIGUOUS_PATH_DETAILS : null;
}

/**
 * The request target with each run of slashes and backslashes in its path as one slash, when its
 * path has such a run written as such and is refused for nothing else; null otherwise.
 */
export function collapsedTarget(url = "/") {
  if (!url.startsWith("/")) return null;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!/\/\/|\\/.test(path)) return null;
  const collapsed = path.replace(/[\\/]+/g, "/") + (end === -1 ? "" : url.slice(end));
  return pathRefusal(collapsed) === null ? collapsed : null;
}

/** True when the path of `url` does not decode to storable text. */
export function malformedPath(url = "/") {
  return pathRefusal(url) === MALFORMED_PATH_DETAILS;
}

/**
 * Answers and returns true when the request's path is refused (400) or has doubled slashes or
 * backslashes (308 to the path with one slash); false otherwise. The body of such a request is
 * never read: the connection closes after the answer.
 */
export function refuseBadPath(req, res) {
  const location = collapsedTarget(req.url);
  const details = location === null ? pathRefusal(req.url) : null;
  if (location === null && details === null) return false;
  const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (hasBody) closeAfterAnswer(req.socket);
  else req.streamBody();
  const body = location === null ? JSON.stringify({ error: "Invalid request", details }) : "";
  // The security headers are on `res` already (server.mjs sets them first).
  res.writeHead(location === null ? 400 : 308, {
    ...(location === null ? { "content-type": "application/json; charset=utf-8" } : { location }),
    "content-length": Buffer.byteLength(body),
    "x-request-id": randomUUID(),
    ...(hasBody ? { connection: "close" } : {}),
  });
  res.end(body);
  return true;
}
