// The widget follows only web addresses from a reply: a url button or an article link with another
// scheme (javascript:, data:, vbscript:, file:) is not opened.
import { describe, expect, it } from "vitest";
import { webAddress } from "../src/links.ts";

describe("webAddress", () => {
  it("keeps absolute http and https addresses", () => {
    expect(webAddress("https://help.example.com/a?b=1#c")).toBe("https://help.example.com/a?b=1#c");
    expect(webAddress("http://example.com")).toBe("http://example.com/");
  });

  it("refuses every other scheme, relative addresses and nothing", () => {
    for (const value of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:x",
      "file:///etc/passwd",
      "/relative",
      "",
      undefined,
    ])
      expect(webAddress(value), String(value)).toBeNull();
  });
});
