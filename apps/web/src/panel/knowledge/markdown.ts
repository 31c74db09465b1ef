// Markdown preview for the article editor, rendered in the browser as the admin types.
//
// Why not sanitize-html here: it pulls htmlparser2 and postcss into the client bundle (large) for a
// preview of the admin's own text. Instead the preview never emits HTML the author wrote: raw HTML
// blocks and inline tags are shown escaped, and link/image URLs with a scheme other than http(s),
// mailto or tel (javascript:, data:, ...) are dropped. Everything else marked renders is escaped by
// marked itself. The public help page does its own sanitising on the server.
import { Marked, type Tokens } from "marked";

const allowedSchemes = new Set(["http:", "https:", "mailto:", "tel:"]);

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Relative URLs and allowed schemes pass; anything else becomes "#". */
export function safeUrl(href: string): string {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  const compact = href.replace(/[\u0000-\u0020\u007f]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1];
  if (scheme === undefined) return href;
  return allowedSchemes.has(`${scheme.toLowerCase()}:`) ? href : "#";
}

const previewMarked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
  },
  walkTokens(token) {
    if (token.type === "link" || token.type === "image") token.href = safeUrl(token.href);
  },
});

export function renderMarkdownPreview(markdown: string): string {
  return previewMarked.parse(markdown, { async: false });
}
