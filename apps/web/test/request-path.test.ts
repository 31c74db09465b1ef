// The server entry's path check (server.mjs answers 400 before Next for these): a path that does
// not percent-decode, or decodes to text the database cannot store, is malformed; the query is
// left to the routes.
import { UNSTORABLE_TEXT_RULE } from "@parley/core/storable-text";
import { describe, expect, it } from "vitest";
import { MALFORMED_PATH_DETAILS, malformedPath } from "~/server/request-path.mjs";

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
