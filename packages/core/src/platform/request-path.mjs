// The one rule for how a request's path reads: URL parsing resolves "." and ".." segments (also
// spelt %2e, in any case) and reads a backslash as a slash, and Next redirects doubled slashes, so
// such a path routes elsewhere than it reads. Whatever chooses by path (the body caps, the route
// table) would then choose for another route than the one that answers: the server entry refuses
// these paths, and bodyLimitForPath reads paths as routing does. Plain JavaScript, because the
// server entry (apps/web/server.mjs), which Node loads as is, applies it.

/** The rule as `details` word it: `path: <rule>`. */
export const PATH_SEGMENTS_RULE =
  'must not have "." or ".." segments, backslashes or doubled slashes, in any spelling (percent-encoded too)';

/** The path of a request target, origin-form or absolute-form, without its query or fragment. */
export function targetPath(target) {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/\\]*/i.exec(path);
  return authority ? path.slice(authority[0].length) || "/" : path;
}

/** True when a percent-decoded path holds a dot segment, a backslash or a doubled slash. */
export function isAmbiguousPath(decodedPath) {
  if (decodedPath.includes("\\") || decodedPath.includes("//")) return true;
  return decodedPath.split("/").some((segment) => segment === "." || segment === "..");
}

/** A request target's path as routing reads it: dot segments resolved, backslashes and doubled slashes as one slash. */
export function routedPath(target) {
  try {
    const path = targetPath(target).replace(/[\\/]+/g, "/");
    return new URL(`http://n${path.startsWith("/") ? path : `/${path}`}`).pathname;
  } catch {
    return target;
  }
}
