// Where an admin goes after signing in: the one rule (safeCallbackUrl) with a table of hostile
// values, and next-auth's redirect callback, which applies the same rule.
import { CALLBACK_URL_MAX_CHARS } from "@parley/core/people/limits";
import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "~/panel/auth/callback-url.ts";
import { authOptions } from "~/server/auth.ts";

const APP = "https://parley.example.com";

/** [callbackUrl, the path followed]. */
const CASES: Array<[unknown, string]> = [
  ["/panel/usage", "/panel/usage"],
  ["/panel/usage?days=7#top", "/panel/usage?days=7#top"],
  [`${APP}/panel/agents/demo`, "/panel/agents/demo"],
  ["/\t/evil.example/x", "/panel"],
  ["/\n/evil.example/x", "/panel"],
  ["/\r\n/evil.example/x", "/panel"],
  ["/\nx", "/x"],
  ["//evil.example/x", "/panel"],
  ["///evil.example/x", "/panel"],
  ["/\\evil.example/x", "/panel"],
  ["\\\\evil.example/x", "/panel"],
  ["/\\/evil.example/x", "/panel"],
  ["\\/evil.example", "/panel"],
  ["/.//evil.example/x", "/panel"],
  ["/%2e//evil.example/x", "/panel"],
  ["/panel/../..//evil.example/x", "/panel"],
  ["https://evil.example/x", "/panel"],
  ["https://parley.example.com.evil.example/x", "/panel"],
  ["https://parley.example.com@evil.example/x", "/panel"],
  ["http://parley.example.com/panel", "/panel"],
  ["http:/evil.example", "/panel"],
  // The app's own scheme without "//": a path of this site, as browsers read it.
  ["https:/evil.example", "/evil.example"],
  ["https:evil.example", "/evil.example"],
  ["javascript:alert(1)", "/panel"],
  ["JaVaScRiPt:alert(1)", "/panel"],
  [" javascript:alert(1)", "/panel"],
  ["java\tscript:alert(1)", "/panel"],
  ["data:text/html,<script>alert(1)</script>", "/panel"],
  ["%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["evil.example", "/evil.example"],
  ["", "/panel"],
  [`/${"a".repeat(CALLBACK_URL_MAX_CHARS)}`, "/panel"],
  [`/${"a".repeat(CALLBACK_URL_MAX_CHARS - 1)}`, `/${"a".repeat(CALLBACK_URL_MAX_CHARS - 1)}`],
  [undefined, "/panel"],
  [["/panel/usage", "/panel/agents"], "/panel"],
];

describe("safeCallbackUrl", () => {
  it.each(CASES)("%j goes to %s", (value, expected) => {
    expect(safeCallbackUrl(value, APP)).toBe(expected);
  });
});

describe("next-auth's redirect callback", () => {
  it.each(CASES.filter((entry): entry is [string, string] => typeof entry[0] === "string"))("%j goes to %s", async (url, expected) => {
    const redirect = authOptions.callbacks?.redirect;
    expect(redirect).toBeDefined();
    expect(await redirect!({ url, baseUrl: APP })).toBe(`${APP}${expected}`);
  });
});
