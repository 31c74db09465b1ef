// Plain text from Markdown, excerpts and highlights for the help centre (no database).
import { describe, expect, it } from "vitest";
import { excerpt, highlight, matchRanges } from "../src/help/excerpt.ts";
import { markdownToPlainText } from "../src/knowledge/articles/plain-text.ts";

describe("markdownToPlainText", () => {
  it("keeps the words and drops the Markdown", () => {
    const markdown = [
      "# Reset &amp; recover",
      "",
      "## Done?",
      "",
      'Use **bold**, _emphasis_ and `inline code` \\*literally\\*. See [the guide](https://example.com/guide "Guide").',
      "",
      "![Screenshot of settings](shot.png) <kbd>Ctrl</kbd>+<kbd>K</kbd> <!-- hidden note --> &copy; &#233;t&#xE9; &unknown;",
      "",
      "- first item",
      "- second item",
      "",
      "1. step one",
      "",
      "> quoted",
      "",
      "| Plan | Price |",
      "|---|---|",
      "| Pro | 10 USD |",
      "",
      "```bash",
      "curl -H 'A: b' https://x",
      "```",
      "",
      "---",
      "",
      "[ref]: https://example.com",
    ].join("\n");
    expect(markdownToPlainText(markdown)).toBe(
      "Reset & recover. Done? Use bold, emphasis and inline code *literally*. See the guide. Screenshot of settings Ctrl+K © été &unknown; " +
        "first item second item step one quoted Plan Price Pro 10 USD curl -H 'A: b' https://x",
    );
  });

  it("is empty for empty Markdown", () => {
    expect(markdownToPlainText("")).toBe("");
    expect(markdownToPlainText("\n\n---\n")).toBe("");
  });

  it("gives the same text for repeated and for edited Markdown, also after many others (remembered results)", () => {
    const article = (n: number) => `# Article ${n}\n\nSee **[the guide](https://example.com/${n})** for step ${n}.`;
    expect(markdownToPlainText(article(1))).toBe("Article 1. See the guide for step 1.");
    expect(markdownToPlainText(article(1))).toBe("Article 1. See the guide for step 1.");
    expect(markdownToPlainText(`${article(1)} Edited.`)).toBe("Article 1. See the guide for step 1. Edited.");
    // More articles than are remembered: the oldest are forgotten and computed again, correctly.
    for (let n = 2; n <= 5_000; n++) expect(markdownToPlainText(article(n))).toBe(`Article ${n}. See the guide for step ${n}.`);
    expect(markdownToPlainText(article(1))).toBe("Article 1. See the guide for step 1.");
    expect(markdownToPlainText(article(4_999))).toBe("Article 4999. See the guide for step 4999.");
  });
});

const LONG =
  "Acme Cloud gives your team one place to run projects and store files. " +
  "Workspaces hold projects, files, members and billing settings. ".repeat(4) +
  "To get a refund, open Settings and choose Billing, then Request a refund within thirty days. " +
  "Payments made by bank transfer are refunded to the same account. ".repeat(3);

describe("excerpt", () => {
  it("returns short text unchanged", () => {
    expect(excerpt("Short text.", "text", 200)).toBe("Short text.");
  });

  it("starts at the beginning without a query, cut at a word with an ellipsis", () => {
    const result = excerpt(LONG, "", 200);
    expect(result.startsWith("Acme Cloud gives your team")).toBe(true);
    expect(result.endsWith("…")).toBe(true);
    expect(result.length).toBeLessThanOrEqual(201);
    expect(result.length).toBeGreaterThan(180);
    expect(result.slice(0, -1)).toBe(LONG.slice(0, result.length - 1));
  });

  it("centres on the match, case- and accent-insensitively", () => {
    for (const q of ["request a refund", "REQUEST À REFUND"]) {
      const result = excerpt(LONG, q, 200);
      expect(result).toMatch(/^….*Request a refund.*…$/);
      expect(result.length).toBeLessThanOrEqual(202);
      const at = result.indexOf("Request a refund");
      // Roughly centred: the match sits in the middle third.
      expect(at).toBeGreaterThan(40);
      expect(at).toBeLessThan(140);
    }
  });

  it("centres on the place holding the most of the query's different words, not on its first match", () => {
    // "workspaces" comes first, four times; "refund", "thirty" and "days" come together later.
    const result = excerpt(LONG, "my workspaces refund after thirty days", 200);
    expect(result).toContain("Request a refund within thirty days");
    expect(result).not.toContain("Workspaces hold projects, files, members and billing settings. Workspaces");
  });

  it("falls back to a matched word, then to the start", () => {
    expect(excerpt(LONG, "refunds policy", 200)).toMatch(/^….*refund.*…$/);
    expect(excerpt(LONG, "zebra", 200).startsWith("Acme Cloud")).toBe(true);
  });
});

describe("highlight", () => {
  it("marks the phrase and stemmed words, keeping the original text", () => {
    const segments = highlight("Refunds: we refunded the Café fee. Refundable? No.", "refund cafe");
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(["Refunds", "refunded", "Café", "Refundable"]);
    expect(segments.map((s) => s.text).join("")).toBe("Refunds: we refunded the Café fee. Refundable? No.");
  });

  it("marks a substring inside a word", () => {
    expect(highlight("Your password", "assw")).toEqual([
      { text: "Your p", match: false },
      { text: "assw", match: true },
      { text: "ord", match: false },
    ]);
  });

  it("ignores stop words and blank queries", () => {
    expect(matchRanges("How to reset your password", "to")).toEqual([]);
    expect(matchRanges("How to reset a password", "a")).toEqual([]);
    expect(highlight("Plain", "  ")).toEqual([{ text: "Plain", match: false }]);
    expect(highlight("", "x")).toEqual([{ text: "", match: false }]);
  });

  it("treats regular-expression characters in the query literally", () => {
    expect(
      highlight("a+b (c) [d]", "(c)")
        .filter((s) => s.match)
        .map((s) => s.text),
    ).toEqual(["(c)"]);
    expect(() => highlight("text", "a[b(c*")).not.toThrow();
  });
});
