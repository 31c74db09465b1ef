// An article's Markdown read as sections of plain sentences: the one splitter of articles into
// passages (the passage index, the quoted answer and the embeddings all name a passage by its
// index in sectionsOf(content)). Each section also keeps how its sentences were laid out
// (paragraphs, list items with their numbers, table rows), so that a quoted answer keeps the
// article's steps as steps; the sentences themselves, all that search reads, are the same.
import { marked, type Token, type Tokens } from "marked";

// ---------------------------------------------------------------------------------------------
// An article as sections of sentences

export interface Section {
  heading: string;
  sentences: string[];
  /** The sentences as the article laid them out, in order: every sentence is in exactly one block. */
  blocks: SectionBlock[];
}

/** A run of a section's sentences that the article wrote as one paragraph, list item or table row. */
export interface SectionBlock {
  kind: "paragraph" | "item" | "row";
  /** Its sentences are sentences.slice(first, first + count). */
  first: number;
  count: number;
  /** Items and rows: their list or table, numbered in the section (items of one list share it). */
  group?: number;
  /** An item of a numbered list: its number as the article shows it. */
  number?: number;
  /** An item whose text had no closing punctuation: its last sentence's final "." was added here. */
  addedStop?: boolean;
}

/** Plain text of inline Markdown tokens (links keep their text, code keeps its content). */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  return tokens
    .map((token) => {
      if (token.type === "html") return "";
      if ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0) return inlineText(token.tokens);
      return "text" in token && typeof token.text === "string" ? token.text : "";
    })
    .join("");
}

function sentencesOf(text: string): string[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return [];
  return flat
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

function asSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return hasStop(flat) ? flat : `${flat}.`;
}

function hasStop(text: string): boolean {
  return /[.!?:;]$/.test(text.replace(/\s+/g, " ").trim());
}

/** The article as sections (the part before the first heading has an empty heading). */
export function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: "", sentences: [], blocks: [] }];
  let groups = 0;
  const add = (sentences: string[], block: Omit<SectionBlock, "first" | "count">) => {
    if (sentences.length === 0) return;
    const current = sections[sections.length - 1]!;
    current.blocks.push({ ...block, first: current.sentences.length, count: sentences.length });
    current.sentences.push(...sentences);
  };
  const addBlock = (token: Token) => {
    if (token.type === "heading") {
      sections.push({ heading: inlineText((token as Tokens.Heading).tokens), sentences: [], blocks: [] });
      groups = 0;
    } else if (token.type === "paragraph" || token.type === "text") {
      add(sentencesOf(inlineText((token as Tokens.Paragraph).tokens)), { kind: "paragraph" });
    } else if (token.type === "list") {
      const list = token as Tokens.List;
      const group = groups++;
      const start = typeof list.start === "number" ? list.start : 1;
      list.items.forEach((item, i) => {
        // An item may hold paragraphs and nested lists; each item is one step or point.
        const text = item.tokens
          .map((child) => (child.type === "list" ? "" : inlineText("tokens" in child ? child.tokens : undefined)))
          .join(" ");
        if (!text.trim()) return;
        add(sentencesOf(asSentence(text)), {
          kind: "item",
          group,
          ...(list.ordered ? { number: start + i } : {}),
          ...(hasStop(text) ? {} : { addedStop: true }),
        });
      });
    } else if (token.type === "table") {
      // Each row reads as "first cell: other cells." ("Credit or debit card: 5 to 10 business days.").
      const group = groups++;
      for (const row of (token as Tokens.Table).rows) {
        const [first, ...rest] = row.map((cell) => inlineText(cell.tokens).trim());
        if (first) add([asSentence(rest.some(Boolean) ? `${first}: ${rest.filter(Boolean).join(", ")}` : first)], { kind: "row", group });
      }
    } else if (token.type === "blockquote") {
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(child);
    }
    // Code blocks, rules and HTML do not read well as a chat answer: the article link has them.
  };
  for (const token of marked.lexer(markdown)) addBlock(token);
  return sections.filter((section) => section.sentences.length > 0);
}
