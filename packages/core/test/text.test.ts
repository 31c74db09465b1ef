// The one rule for text PostgreSQL cannot store, and where it is found in parsed JSON.
import { describe, expect, it } from "vitest";
import { isUnstorableText, pathOfUnstorableText, storableString, UNSTORABLE_TEXT_RULE } from "../src/platform/text.ts";

describe("isUnstorableText", () => {
  it("is true for NUL and for lone surrogates, false for any real text", () => {
    for (const text of ["\u0000", "a\u0000b", "\ud800", "x\udc00", "\udc00\ud800"])
      expect(isUnstorableText(text), JSON.stringify(text)).toBe(true);
    for (const text of ["", "plain", "é", "\u{1F600}", "\u0001\u001f\u007f", "\ufffd", "\uffff"])
      expect(isUnstorableText(text), JSON.stringify(text)).toBe(false);
  });

  it("is what PostgreSQL refuses: NUL in text, lone surrogate escapes in jsonb", () => {
    expect(UNSTORABLE_TEXT_RULE).toBe("must be valid Unicode text without NUL characters");
  });
});

describe("pathOfUnstorableText", () => {
  it("names the first bad value or key, or null", () => {
    expect(pathOfUnstorableText({ message: "hi", visitor: { name: "a\u0000" } })).toBe("visitor.name");
    expect(pathOfUnstorableText({ tags: ["ok", "\ud800"] })).toBe("tags.1");
    expect(pathOfUnstorableText({ vars: { "\u0000": "x" } })).toBe("vars (a key)");
    expect(pathOfUnstorableText("\u0000", "frame")).toBe("frame");
    expect(pathOfUnstorableText({ "\u0000": 1 }, "input")).toBe("input (a key)");
    expect(pathOfUnstorableText({ message: "\u{1F600}", n: 1, b: true, z: null })).toBeNull();
  });

  it("walks deep nesting without recursion", () => {
    let deep: unknown = "\u0000";
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(pathOfUnstorableText(deep)).toMatch(/^0(\.0)+$/);
  });
});

describe("storableString", () => {
  it("refuses unstorable text with the rule's wording", () => {
    const result = storableString().safeParse("a\u0000b");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(UNSTORABLE_TEXT_RULE);
    expect(storableString().safeParse("ok").success).toBe(true);
  });
});
