// An article's Markdown read as sections of plain sentences: the one splitter of articles into
// passages (the passage index, the quoted answer and the embeddings all name a passage by its
// index in sectionsOf(content)).
import { marked, type Token, type Tokens } from "marked";

// ---------------------------------------------------------------------------------------------
// An article as sections of sentences

export interface Section {
  heading: string;
  sentences: string[];
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
  return /[.!?:;]$/.test(flat) ? flat : `${flat}.`;
}

/** The article as sections (the part before the first heading has an empty heading). */
export function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: "", sentences: [] }];
  const addBlock = (token: Token) => {
    const current = sections[sections.length - 1]!;
    if (token.type === "heading") {
      sections.push({ heading: inlineText((token as Tokens.Heading).tokens), sentences: [] });
    } else if (token.type === "paragraph" || token.type === "text") {
      current.sentences.push(...sentencesOf(inlineText((token as Tokens.Paragraph).tokens)));
    } else if (token.type === "list") {
      for (const item of (token as Tokens.List).items) {
        // An item may hold paragraphs and nested lists; each item is one step or point.
        const text = item.tokens
          .map((child) => (child.type === "list" ? "" : inlineText("tokens" in child ? child.tokens : undefined)))
          .join(" ");
        if (text.trim()) current.sentences.push(...sentencesOf(asSentence(text)));
      }
    } else if (token.type === "table") {
      // Each row reads as "first cell: other cells." ("Credit or debit card: 5 to 10 business days.").
      for (const row of (token as Tokens.Table).rows) {
        const [first, ...rest] = row.map((cell) => inlineText(cell.tokens).trim());
        if (first) current.sentences.push(asSentence(rest.some(Boolean) ? `${first}: ${rest.filter(Boolean).join(", ")}` : first));
      }
    } else if (token.type === "blockquote") {
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(child);
    }
    // Code blocks, rules and HTML do not read well as a chat answer: the article link has them.
  };
  for (const token of marked.lexer(markdown)) addBlock(token);
  return sections.filter((section) => section.sentences.length > 0);
}
