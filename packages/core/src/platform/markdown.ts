// Markdown to safe HTML, the one place where Parley turns text from people or agents into markup:
// help-centre articles, the panel's article preview (through a procedure) and conversation view,
// and the widget's messages (the server sends them this HTML). marked renders GitHub-flavoured
// Markdown; sanitize-html then keeps only the tags, attributes and URL schemes allowed below, so raw
// HTML, event handlers and script URLs (however encoded) never reach a page. Runs on the server only.
import { Marked, type Token } from "marked";
import sanitizeHtml from "sanitize-html";
import { foreignWebUrl, LINK_SCHEMES } from "./safe-url.ts";

const ALLOWED_TAGS = [
  ...["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "ul", "ol", "li", "dl", "dt", "dd"],
  ...["a", "img", "em", "strong", "b", "i", "u", "s", "del", "sub", "sup", "kbd", "mark", "small", "abbr", "span", "div"],
  ...["table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "details", "summary", "input"],
];

/**
 * Links to other sites open in a new tab, without access to this page (window.opener) or its
 * address. Judged as a browser reads the address (foreignWebUrl): one it reads as another site's
 * however it is written (`/\evil.example`) is written out as such.
 */
function link(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const foreign = attribs.href === undefined ? undefined : foreignWebUrl(attribs.href);
  return {
    tagName: "a",
    attribs:
      foreign === undefined
        ? withoutKeys(attribs, ["target", "rel"])
        : { ...attribs, href: foreign, target: "_blank", rel: "noopener noreferrer" },
  };
}

/** An image from another site, its address written as a browser reads it (see link). */
function image(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const foreign = attribs.src === undefined ? undefined : foreignWebUrl(attribs.src);
  return { tagName: "img", attribs: foreign === undefined ? attribs : { ...attribs, src: foreign } };
}

/**
 * An image in a chat message, as a link to it: a reply can be written by a language model that
 * read a visitor's or an article's words, and an image that loads on its own would send whatever
 * its address holds to its host the moment a teammate or visitor opens the conversation.
 */
function imageAsLink(_tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const linked = link("a", attribs.src === undefined ? {} : { href: attribs.src });
  return { ...linked, text: imageLabel(attribs.alt) };
}

/** How a message names an image it shows as a link: "Image: <its description>", or "Image". */
export function imageLabel(description: string | undefined): string {
  const text = description?.trim();
  return text ? `Image: ${text}` : "Image";
}

/**
 * A message's Markdown images as links to them (imageAsLink), and as their label alone inside a
 * link, which cannot hold another.
 */
function imagesAsLinks(marked: Marked, tokens: Token[]): void {
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === "link") {
      for (const child of token.tokens ?? []) {
        if (child.type === "image") Object.assign(child, { type: "text", text: imageLabel(child.text), tokens: undefined, escaped: false });
      }
    } else if (token.type === "image") {
      const label = imageLabel(token.text);
      Object.assign(token, { type: "link", text: label, tokens: [{ type: "text", raw: label, text: label, escaped: false }] });
    }
  });
}

function withoutKeys(attribs: sanitizeHtml.Attributes, keys: string[]): sanitizeHtml.Attributes {
  return Object.fromEntries(Object.entries(attribs).filter(([key]) => !keys.includes(key)));
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    abbr: ["title"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    ol: ["start"],
    // GFM task lists render disabled checkboxes.
    input: ["type", "checked", "disabled"],
    pre: ["tabindex"],
    table: ["tabindex"],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: [...LINK_SCHEMES],
  // Images load without a click: only from the web.
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  transformTags: {
    a: link,
    img: image,
    // Code blocks and tables scroll sideways on narrow screens: keyboard users must reach them.
    pre: (tagName) => ({ tagName, attribs: { tabindex: "0" } }),
    table: (tagName) => ({ tagName, attribs: { tabindex: "0" } }),
  },
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox",
};

/** Chat messages: the same, but an image is a link to it (imageAsLink). */
const SANITIZE_MESSAGE: sanitizeHtml.IOptions = { ...SANITIZE, transformTags: { ...SANITIZE.transformTags, img: imageAsLink } };

const markedFor = {
  /** Articles: paragraphs as written (a single newline continues the line). */
  article: new Marked({ gfm: true, breaks: false, async: false }),
  /** Chat messages: every newline the writer typed is a line break. */
  message: new Marked({ gfm: true, breaks: true, async: false }),
};

export interface RenderOptions {
  kind: keyof typeof markedFor;
  /**
   * The level the Markdown's top headings become (the page around owns the levels above), so that
   * the outline stays in order for screen readers.
   */
  topHeading: 1 | 2 | 3 | 4 | 5 | 6;
}

/** Safe HTML of `markdown`. */
export function renderMarkdown(markdown: string, options: RenderOptions): string {
  const marked = markedFor[options.kind];
  const tokens = marked.lexer(markdown);
  let topLevel = 6;
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === "heading") topLevel = Math.min(topLevel, token.depth);
  });
  const shift = Math.max(0, options.topHeading - topLevel);
  if (shift > 0) {
    marked.walkTokens(tokens, (token: Token) => {
      if (token.type === "heading") token.depth = Math.min(6, token.depth + shift);
    });
  }
  if (options.kind === "message") imagesAsLinks(marked, tokens);
  return sanitizeHtml(marked.parser(tokens), options.kind === "message" ? SANITIZE_MESSAGE : SANITIZE);
}

/** An article's body as the help page shows it, under the page's h1 title. */
export function renderArticleHtml(markdown: string): string {
  return renderMarkdown(markdown, { kind: "article", topHeading: 2 });
}

/** A chat message (an agent's or a team member's reply), under a page's h2 section. */
export function renderMessageHtml(text: string): string {
  return renderMarkdown(text, { kind: "message", topHeading: 3 });
}

/**
 * Plain text (one line, no markup meant) written as Markdown that reads as that very text, for
 * replies built from an article's words. The characters Markdown reads as markup anywhere (a
 * backslash, ` * [ ]) are escaped; the others only where they would act: an underscore at a
 * word's edge (snake_case stays), a "<" that could open a tag ("a < b" stays), an "&" that names
 * a character, tildes that could pair up, and a line start that would make a heading, quote, list
 * or rule ("1986. A good year." is no list). A renderer shows each escape as the character alone.
 */
export function markdownLiteral(text: string): string {
  const tildes = text.split("~").length - 1;
  return text
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<")
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, "\\&")
    .replace(/~/g, tildes > 1 ? "\\~" : "~")
    .replace(/^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|[-=]+\s*$)/, "$1\\$2")
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, "$1\\$2");
}
