// HTML (a fetched page, a help desk export's body) to the Markdown articles are stored in, with
// turndown. Scripts, styles, forms and the page's chrome are dropped; what is left is rendered
// through the help centre's sanitiser anyway when shown.
import TurndownService from "turndown";

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove([
  "script",
  "style",
  "noscript",
  "iframe",
  "object",
  "embed",
  "form",
  "button",
  "nav",
  "header",
  "footer",
  "aside",
  "svg",
] as never);

export function htmlToMarkdown(html: string): string {
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A page's article: the title (its <h1>, else <title>) and the Markdown of <main> or <article> (else <body>). */
export function pageToArticle(html: string): { title: string; content: string } {
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const titleTag = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const title = decodeText(h1 ?? titleTag ?? "");
  const part =
    /<article[^>]*>([\s\S]*?)<\/article>/i.exec(html)?.[1] ??
    /<main[^>]*>([\s\S]*?)<\/main>/i.exec(html)?.[1] ??
    /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html)?.[1] ??
    html;
  // The title is the article's own; it is not repeated as the body's first heading.
  const body = h1 === undefined ? part : part.replace(/<h1[^>]*>[\s\S]*?<\/h1>/i, "");
  return { title, content: htmlToMarkdown(body) };
}

function decodeText(html: string): string {
  return htmlToMarkdown(html.replace(/<[^>]+>/g, " "))
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
