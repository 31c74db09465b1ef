// Markdown to plain text, for help excerpts: marked's lexer parses the Markdown (so emphasis,
// links, code fences, tables and raw HTML are understood, not guessed by regexes) and the text of
// its tokens is joined with whitespace collapsed.
import { Lexer, type Token, type Tokens } from "marked";

/** Block tokens: their text is separated from what follows. */
const BLOCK_TYPES = new Set(["heading", "paragraph", "code", "blockquote", "list_item", "table", "hr", "space", "def"]);

// Lexing is the costly part of a help list (about 0.3 ms an article, 50 articles a list), and the
// same articles are listed again and again: results are remembered by their Markdown, so an edited
// article is simply a new entry. Least recently used entries go first; a few MB at most.
const PLAIN_TEXT_CACHE_ENTRIES = 2_000;
const plainTextCache = new Map<string, string>();

export function markdownToPlainText(markdown: string): string {
  const cached = plainTextCache.get(markdown);
  if (cached !== undefined) {
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    plainTextCache.delete(markdown);
    plainTextCache.set(markdown, cached);
    return cached;
  }
  const parts: string[] = [];
  collectText(new Lexer({ gfm: true }).lex(markdown), parts);
  const text = decodeEntities(parts.join("")).replace(/\s+/g, " ").trim();
  plainTextCache.set(markdown, text);
  if (plainTextCache.size > PLAIN_TEXT_CACHE_ENTRIES) plainTextCache.delete(plainTextCache.keys().next().value!);
  return text;
}

function collectText(tokens: readonly Token[], parts: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "hr":
      case "def":
      case "checkbox":
      case "br":
        break;
      case "html":
        // Raw HTML: keep the words between tags, drop comments and the tags themselves.
        parts.push((token as Tokens.HTML).text.replace(/<!--[\s\S]*?(-->|$)/g, " ").replace(/<[^>]*>/g, ""));
        break;
      case "list":
        for (const item of (token as Tokens.List).items) collectText([item], parts);
        break;
      case "table": {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          for (const cell of row) {
            collectText(cell.tokens, parts);
            parts.push(" ");
          }
        }
        break;
      }
      case "heading": {
        // A heading reads as a sentence of its own in running text.
        const heading: string[] = [];
        collectText((token as Tokens.Heading).tokens, heading);
        const text = heading.join("").trim();
        parts.push(/[.!?:…]$/.test(text) || text === "" ? text : `${text}.`);
        break;
      }
      case "image":
        // The alternative text stands for the image.
        parts.push((token as Tokens.Image).text);
        break;
      default:
        if ("tokens" in token && Array.isArray(token.tokens)) collectText(token.tokens, parts);
        else if ("text" in token && typeof token.text === "string") parts.push(token.text);
    }
    const isBlock = BLOCK_TYPES.has(token.type) || token.type === "br" || (token.type === "html" && (token as Tokens.HTML).block);
    if (isBlock) parts.push(" ");
  }
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  times: "×",
  rarr: "→",
  larr: "←",
};

/** Decodes numeric character references and the common named ones; others stay as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, name: string) => {
    if (name.startsWith("#")) {
      const codePoint = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      const valid = codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
      return valid ? String.fromCodePoint(codePoint) : whole;
    }
    return NAMED_ENTITIES[name] ?? whole;
  });
}
