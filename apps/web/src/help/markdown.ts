// Article Markdown to safe HTML: marked renders (GitHub-flavoured: headings, lists, code, tables,
// links), sanitize-html keeps only harmless tags and attributes, so raw HTML or javascript: links
// in an article cannot run script on the help centre.
import { Marked, type Token } from "marked";
import sanitizeHtml from "sanitize-html";

const marked = new Marked({ gfm: true, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "del", "input"],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    ol: ["start"],
    // GFM task lists render disabled checkboxes.
    input: ["type", "checked", "disabled"],
    pre: ["tabindex"],
    table: ["tabindex"],
  },
  // Code blocks and tables scroll sideways on narrow screens: keyboard users must reach them.
  transformTags: {
    pre: (tagName) => ({ tagName, attribs: { tabindex: "0" } }),
    table: (tagName) => ({ tagName, attribs: { tabindex: "0" } }),
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox",
};

/**
 * The article body as HTML. The page's title is its only h1, so headings are shifted until the
 * article's top level is h2 (keeps the outline in order for screen readers).
 */
export function renderArticleHtml(markdown: string): string {
  const tokens = marked.lexer(markdown);
  let topLevel = 6;
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === "heading") topLevel = Math.min(topLevel, token.depth);
  });
  const shift = Math.max(0, 2 - topLevel);
  if (shift > 0) {
    marked.walkTokens(tokens, (token: Token) => {
      if (token.type === "heading") token.depth = Math.min(6, token.depth + shift);
    });
  }
  return sanitizeHtml(marked.parser(tokens), SANITIZE);
}
