// The article editor's toolbar as text edits: each turns the text and its selection into the
// replacement of a range and the selection after it, so the editor applies it as one typed edit
// (the browser's undo takes it back). Pure: the tests call it without a browser.

export type MarkdownFormat = "heading" | "bold" | "italic" | "bulletList" | "numberedList" | "link" | "code" | "codeBlock";

export interface TextSelection {
  start: number;
  end: number;
}

export interface TextEdit {
  /** The range replaced... */
  start: number;
  end: number;
  /** ...by this text... */
  text: string;
  /** ...and the selection afterwards (positions in the new text). */
  selection: TextSelection;
}

/** The selected text wrapped in `before`/`after`; with nothing selected, `placeholder` wrapped and selected. */
function wrap(value: string, { start, end }: TextSelection, before: string, after: string, placeholder: string): TextEdit {
  const inner = value.slice(start, end) || placeholder;
  return {
    start,
    end,
    text: `${before}${inner}${after}`,
    selection: { start: start + before.length, end: start + before.length + inner.length },
  };
}

/** The selected lines (whole lines from the selection's first to its last), each given `prefix(index)`. */
function prefixLines(value: string, { start, end }: TextSelection, prefix: (index: number) => string, placeholder: string): TextEdit {
  const lineStart = value.lastIndexOf("\n", start - 1) + 1;
  const nextBreak = value.indexOf("\n", end > start && value[end - 1] === "\n" ? end - 1 : end);
  const lineEnd = nextBreak === -1 ? value.length : nextBreak;
  const lines = (value.slice(lineStart, lineEnd) || placeholder).split("\n");
  const text = lines.map((line, index) => `${prefix(index)}${line.replace(/^(?:#{1,6} |[-*+] |\d+\. )/, "")}`).join("\n");
  const selection =
    lines.length === 1
      ? { start: lineStart + prefix(0).length, end: lineStart + text.length }
      : { start: lineStart, end: lineStart + text.length };
  return { start: lineStart, end: lineEnd, text, selection };
}

/** The edit a toolbar button (or its shortcut) makes to `value` with `selection`. */
export function formatMarkdown(format: MarkdownFormat, value: string, selection: TextSelection): TextEdit {
  switch (format) {
    case "bold":
      return wrap(value, selection, "**", "**", "bold text");
    case "italic":
      return wrap(value, selection, "_", "_", "italic text");
    case "code":
      return wrap(value, selection, "`", "`", "code");
    case "heading":
      return prefixLines(value, selection, () => "## ", "Heading");
    case "bulletList":
      return prefixLines(value, selection, () => "- ", "List item");
    case "numberedList":
      return prefixLines(value, selection, (index) => `${index + 1}. `, "List item");
    case "codeBlock": {
      const { start, end } = selection;
      const before = start > 0 && value[start - 1] !== "\n" ? "\n" : "";
      return wrap(value, selection, `${before}\`\`\`\n`, "\n```\n", value.slice(start, end) ? "" : "code");
    }
    case "link": {
      const { start, end } = selection;
      const label = value.slice(start, end);
      // The address is selected to be typed over; with no text selected, the link text is.
      if (label) {
        const text = `[${label}](https://)`;
        const urlStart = start + label.length + 3;
        return { start, end, text, selection: { start: urlStart, end: urlStart + "https://".length } };
      }
      return { start, end, text: "[link text](https://)", selection: { start: start + 1, end: start + 1 + "link text".length } };
    }
  }
}

/** The line breaks that make a blank line between `text` and what is inserted next to it. */
function blankLine(text: string): string {
  if (text === "" || text.endsWith("\n\n")) return "";
  return text.endsWith("\n") ? "\n" : "\n\n";
}

/**
 * An uploaded image as Markdown, `![alt](url)`, as a paragraph of its own: blank lines around it,
 * or Markdown would continue the list item or paragraph above with it.
 */
export function imageMarkdown(value: string, { start, end }: TextSelection, alt: string, url: string): TextEdit {
  const cleanAlt = alt.replace(/[[\]\n\r]/g, " ").trim();
  const before = blankLine(value.slice(0, start));
  const after = blankLine([...value.slice(end)].reverse().join(""));
  const text = `${before}![${cleanAlt}](${url})${after}`;
  const altStart = start + before.length + 2;
  return { start, end, text, selection: { start: altStart, end: altStart + cleanAlt.length } };
}

/** A picture's file name as its first description ("Screenshot 2026-01-05.png" → "Screenshot 2026-01-05"). */
export function altFromFileName(name: string): string {
  return (
    name
      .replace(/\.[a-z0-9]+$/i, "")
      .replace(/[-_]+/g, " ")
      .trim() || "image"
  );
}
