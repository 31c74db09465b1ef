// The server entry's path check (server.mjs answers 400 before Next for these): a path that does
// not percent-decode, or decodes to text the database cannot store, is malformed; one that routes
// elsewhere than it reads (dot segments, backslashes, doubled slashes) is ambiguous; the query is
// left to the routes.
import { PATH_SEGMENTS_RULE } from "@parley/core/request-path";
import { UNSTORABLE_TEXT_RULE } from "@parley/core/storable-text";
import { describe, expect, it } from "vitest";
import { AMBIGUOUS_PATH_DETAILS, collapsedTarget, MALFORMED_PATH_DETAILS, malformedPath, pathRefusal } from "~/server/request-path.mjs";

describe("malformedPath", () => {
  it("accepts ordinary and percent-encoded UTF-8 paths", () => {
    for (const path of ["/", "/help/demo", "/help/d%C3%A9mo/articles/art-1", "/api/agent/%F0%9F%98%80/help", "/a%20b"]) {
      expect(malformedPath(path), path).toBe(false);
    }
  });

  it("refuses a NUL and what is not percent-encoded UTF-8", () => {
    for (const path of ["/help/%00", "/api/agent/a%00b/help", "/help/%ZZ", "/help/%", "/help/%C0", "/help/%ED%A0%80"]) {
      expect(malformedPath(path), path).toBe(true);
    }
  });

  it("looks at the path only: the query is the routes' to judge", () => {
    expect(malformedPath("/api/agent/demo/help/articles?q=%00")).toBe(false);
    expect(malformedPath("/help/demo#%ZZ")).toBe(false);
  });

  it("words the refusal with the one rule for text the database cannot store", () => {
    expect(MALFORMED_PATH_DETAILS).toBe(`path: ${UNSTORABLE_TEXT_RULE} (percent-encoded as UTF-8)`);
  });
});

// Every spelling of a path that routes elsewhere than it reads: URL parsing resolves "." and ".."
// segments (also %2e, in any case) and reads a backslash as a slash, and Next redirects doubled
// slashes and backslashes. The body cap and the route table choose by the path as it reads.
const AMBIGUOUS_PATHS = [
  "/api/agent/../auth/callback/credentials",
  "/api/agent/../trpc/savedReplies.create",
  "/api/panel/imports/../../trpc/savedReplies.create",
  "/api/agent/%2e%2e/trpc/savedReplies.create",
  "/api/agent/%2E%2e/auth/callback/credentials",
  "/api/agent/.%2E/trpc/x",
  "/api/agent/%2e./trpc/x",
  "/api/agent/./x",
  "/api/agent/%2e/x",
  "/help/demo/..",
  "/help/demo/.",
  "/api/agent\\..\\auth/callback/credentials",
  "/api/agent%5c..%5cauth/callback/credentials",
  "/api/agent%5C%2e%2e%5Ctrpc/x",
  "/api/agent/x\\y",
  "/api/agent/%2f..%2ftrpc/x",
  "//api/auth/callback/credentials",
  "/api//auth/callback/credentials",
  "/api/agent/..?q=1",
  "http://example.test/api/agent/../auth/callback/credentials",
];

describe("pathRefusal", () => {
  it("refuses every spelling of a dot segment, a backslash or a doubled slash, naming the rule", () => {
    for (const path of AMBIGUOUS_PATHS) expect(pathRefusal(path), path).toBe(AMBIGUOUS_PATH_DETAILS);
    expect(AMBIGUOUS_PATH_DETAILS).toBe(`path: ${PATH_SEGMENTS_RULE}`);
  });

  it("accepts paths that read as they route, dots inside a segment and a trailing slash included", () => {
    for (const path of [
      "/",
      "/help/demo/",
      "/api/agent/a.b/help",
      "/help/demo/articles/v1.2..3",
      "/docs/assets/app.css",
      "/api/agent/demo/help?q=../x",
      "/widget.js",
      "http://example.test/api/health",
    ]) {
      expect(pathRefusal(path), path).toBeNull();
    }
  });

  it("redirects doubled slashes and backslashes written as such to the path with one slash, query kept; nothing else", () => {
    expect(collapsedTarget("//api/auth/callback/credentials")).toBe("/api/auth/callback/credentials");
    expect(collapsedTarget("/api//auth/callback/credentials?x=1//2")).toBe("/api/auth/callback/credentials?x=1//2");
    expect(collapsedTarget("/api/agent/x\\y")).toBe("/api/agent/x/y");
    expect(collapsedTarget("//evil.example/x")).toBe("/evil.example/x");
    expect(collapsedTarget("/\\evil.example")).toBe("/evil.example");
    // Still refused once collapsed, or spelt percent-encoded: no redirect (the 400 stands).
    for (const path of [
      "/api/agent\\..\\auth/callback/credentials",
      "/api//agent/../x",
      "/api/agent%5cx",
      "/api/agent/%2f%2fx",
      "/help/demo",
      "http://example.test//x",
    ])
      expect(collapsedTarget(path), path).toBeNull();
  });

  it("refuses a malformed path with its own rule first", () => {
    expect(pathRefusal("/help/%00/..")).toBe(MALFORMED_PATH_DETAILS);
    expect(pathRefusal("/help/%ZZ")).toBe(MALFORMED_PATH_DETAILS);
  });
});
