// The article editor's toolbar edits: what each button writes around the selection and what it
// leaves selected.
import { describe, expect, it } from "vitest";
import { altFromFileName, formatMarkdown, imageMarkdown, type TextEdit } from "~/panel/knowledge/markdown-format.ts";

/** The text after the edit, with the selection shown as [[...]]. */
function apply(value: string, edit: TextEdit): string {
  const next = value.slice(0, edit.start) + edit.text + value.slice(edit.end);
  return `${next.slice(0, edit.selection.start)}[[${next.slice(edit.selection.start, edit.selection.end)}]]${next.slice(edit.selection.end)}`;
}

describe("formatMarkdown", () => {
  it("wraps the selection in bold, italic and code marks, keeping it selected", () => {
    expect(apply("Pay now", formatMarkdown("bold", "Pay now", { start: 4, end: 7 }))).toBe("Pay **[[now]]**");
    expect(apply("Pay now", formatMarkdown("italic", "Pay now", { start: 0, end: 3 }))).toBe("_[[Pay]]_ now");
    expect(apply("run npm", formatMarkdown("code", "run npm", { start: 4, end: 7 }))).toBe("run `[[npm]]`");
  });

  it("inserts a placeholder to type over when nothing is selected", () => {
    expect(apply("Hi ", formatMarkdown("bold", "Hi ", { start: 3, end: 3 }))).toBe("Hi **[[bold text]]**");
    expect(apply("", formatMarkdown("link", "", { start: 0, end: 0 }))).toBe("[[[link text]]](https://)");
  });

  it("makes a link of the selected text and selects the address to type", () => {
    expect(apply("See the guide", formatMarkdown("link", "See the guide", { start: 8, end: 13 }))).toBe("See the [guide]([[https://]])");
  });

  it("turns whole lines into a heading or a list, replacing an earlier prefix", () => {
    expect(apply("Intro\nRefunds", formatMarkdown("heading", "Intro\nRefunds", { start: 8, end: 8 }))).toBe("Intro\n## [[Refunds]]");
    expect(apply("one\ntwo", formatMarkdown("bulletList", "one\ntwo", { start: 1, end: 5 }))).toBe("[[- one\n- two]]");
    expect(apply("- one\n- two", formatMarkdown("numberedList", "- one\n- two", { start: 0, end: 11 }))).toBe("[[1. one\n2. two]]");
  });

  it("fences a code block on lines of its own", () => {
    expect(apply("Run:", formatMarkdown("codeBlock", "Run:", { start: 4, end: 4 }))).toBe("Run:\n```\n[[code]]\n```\n");
  });
});

describe("imageMarkdown", () => {
  it("puts the image in a paragraph of its own and selects its description to edit", () => {
    const url = "http://localhost:3000/api/images/abc.png";
    expect(apply("Before after", imageMarkdown("Before after", { start: 6, end: 7 }, "Screen [1]", url))).toBe(
      `Before\n\n![[[Screen  1]]](${url})\n\nafter`,
    );
    // After a list item's line: a blank line, so the image is not part of the item.
    expect(apply("- Fill in the form\n", imageMarkdown("- Fill in the form\n", { start: 19, end: 19 }, "form", url))).toBe(
      `- Fill in the form\n\n![[[form]]](${url})`,
    );
    expect(apply("", imageMarkdown("", { start: 0, end: 0 }, "form", url))).toBe(`![[[form]]](${url})`);
  });

  it("describes a picture by its file name", () => {
    expect(altFromFileName("refund_form-screenshot.png")).toBe("refund form screenshot");
    expect(altFromFileName(".png")).toBe("image");
  });
});
