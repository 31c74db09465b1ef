// The one Markdown-to-safe-HTML module: what it keeps of real Markdown, and that none of the XSS
// fixture's payloads leaves a script-capable element, attribute or URL (checked on the parsed
// output, the way a browser would read it).
import { XSS_ARTICLE, XSS_PAYLOADS } from "@parley/testing/xss-payloads";
import { type ChildNode, type Element, isTag } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { markdownLiteral, renderArticleHtml, renderMessageHtml } from "../src/platform/markdown.ts";
import { LINK_SCHEMES, safeLinkUrl } from "../src/platform/safe-url.ts";

const SAFE_TAGS = new Set(
  "p br hr h1 h2 h3 h4 h5 h6 blockquote pre code ul ol li dl dt dd a img em strong b i u s del sub sup kbd mark small abbr span div table caption thead tbody tfoot tr th td details summary input".split(
    " ",
  ),
);

function elements(nodes: ChildNode[]): Element[] {
  return nodes.flatMap((node) => (isTag(node) ? [node, ...elements(node.children)] : []));
}

/** Everything in `html` that could run script, as a browser parses it. */
function dangers(html: string): string[] {
  const found: string[] = [];
  for (const element of elements(parseDocument(html).children)) {
    if (!SAFE_TAGS.has(element.name)) found.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name) || name === "style" || name === "srcdoc" || name.includes(":")) found.push(`${element.name}[${name}]`);
      if (["href", "src", "action", "formaction", "data"].includes(name) && safeLinkUrl(value) === undefined) {
        found.push(`${element.name}[${name}=${value}]`);
      }
      if (name === "src" && !/^https?:/i.test(new URL(value, "https://relative.invalid/").protocol)) found.push(`img[src=${value}]`);
    }
    if (element.name === "input" && element.attribs.type !== "checkbox") found.push("input that is not a checkbox");
  }
  return found;
}

describe("renderArticleHtml and renderMessageHtml with the XSS fixture", () => {
  it.each(XSS_PAYLOADS.map((payload) => [payload.name, payload.markdown]))("%s", (_name, markdown) => {
    expect(dangers(renderArticleHtml(markdown))).toEqual([]);
    expect(dangers(renderMessageHtml(markdown))).toEqual([]);
  });

  it("holds the whole fixture at once (payloads next to each other)", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(25);
    expect(dangers(renderArticleHtml(XSS_ARTICLE))).toEqual([]);
    expect(dangers(renderMessageHtml(XSS_ARTICLE))).toEqual([]);
  });

  it("keeps the text of a neutralised link and drops its URL (the reported entity-encoded attack)", () => {
    expect(renderArticleHtml("[guide](javascript&#58;fetch('/api/trpc/keys.generate'))")).toBe("<p><a>guide</a></p>\n");
    expect(renderArticleHtml("[guide](&#x6A;avascript:alert(1))")).toBe("<p><a>guide</a></p>\n");
    expect(renderArticleHtml('<a href="jav&#x09;ascript:alert(1)">x</a>')).toBe("<p><a>x</a></p>\n");
  });

  it("shows HTML inside code as text", () => {
    expect(renderArticleHtml("`<img src=x onerror=alert(1)>`")).toBe("<p><code>&lt;img src=x onerror=alert(1)&gt;</code></p>\n");
  });

  it("keeps a safe link whose title tried to break out, with the title as text", () => {
    const html = renderArticleHtml('[title](https://example.com/ "x\\" onmouseover=\\"alert(1)")');
    expect(html).toBe(
      '<p><a href="https://example.com/" title="x&quot; onmouseover=&quot;alert(1)" target="_blank" rel="noopener noreferrer">title</a></p>\n',
    );
  });
});

describe("renderArticleHtml", () => {
  it("renders headings, lists, code, tables and links", () => {
    const html = renderArticleHtml(
      [
        "## Steps",
        "",
        "1. Open **Settings**",
        "2. Choose [Billing](https://example.com/billing)",
        "",
        "- one",
        "- two",
        "- [x] done",
        "",
        "Run `npm start`, see [refunds](/help/demo/articles/art-refunds) or [write](mailto:help@example.com).",
        "",
        "```bash",
        "curl -H 'A: <b>' https://x",
        "```",
        "",
        "| Plan | Price |",
        "|:---|---:|",
        "| Pro | 10 |",
        "",
        "![Logo](https://example.com/logo.png) ~~old~~",
      ].join("\n"),
    );
    expect(html).toContain("<h2>Steps</h2>");
    expect(html).toContain("<ol>\n<li>Open <strong>Settings</strong></li>");
    // Other sites open in a new tab without window.opener; links of this site stay in the tab.
    expect(html).toContain('<a href="https://example.com/billing" target="_blank" rel="noopener noreferrer">Billing</a>');
    expect(html).toContain('<a href="/help/demo/articles/art-refunds">refunds</a>');
    expect(html).toContain('<a href="mailto:help@example.com">write</a>');
    expect(html).toContain("<ul>\n<li>one</li>");
    expect(html).toContain('<li><input checked disabled type="checkbox" /> done</li>');
    expect(html).toContain("<code>npm start</code>");
    expect(html).toContain('<pre tabindex="0"><code class="language-bash">curl -H \'A: &lt;b&gt;\' https://x\n</code></pre>');
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('<th align="left">Plan</th>');
    expect(html).toContain('<td align="right">10</td>');
    expect(html).toContain('<img src="https://example.com/logo.png" alt="Logo" /> <del>old</del>');
  });

  it("shifts headings so the article's top level is h2 under the page's h1", () => {
    expect(renderArticleHtml("# Top\n\n## Sub\n\ntext")).toBe("<h2>Top</h2>\n<h3>Sub</h3>\n<p>text</p>\n");
    expect(renderArticleHtml("### Only h3")).toBe("<h3>Only h3</h3>\n");
  });

  it("drops an author's own target and rel on links of this site, and sets them on links to others", () => {
    expect(renderArticleHtml('<a href="/x" target="_top" rel="opener">x</a>')).toBe('<p><a href="/x">x</a></p>\n');
    expect(renderArticleHtml('<a href="//other.example/x" rel="opener">x</a>')).toBe(
      '<p><a href="//other.example/x" rel="noopener noreferrer" target="_blank">x</a></p>\n',
    );
  });

  it("reads a link as a browser does: backslashes are slashes and tabs or newlines vanish, so one to another site is written out as such", () => {
    const away = (href: string) => `<p><a href="${href}" target="_blank" rel="noopener noreferrer">x</a></p>\n`;
    for (const [written, read] of [
      ["/\\evil.example", "https://evil.example/"],
      ["\\/evil.example", "https://evil.example/"],
      ["\\\\evil.example", "https://evil.example/"],
      ["/\\/evil.example/a", "https://evil.example/a"],
      ["/&#9;/evil.example", "https://evil.example/"],
      ["/&#10;/evil.example", "https://evil.example/"],
      ["https:\\\\evil.example\\a", "https://evil.example/a"],
      ["ht&#9;tps://evil.example/", "https://evil.example/"],
      ["htt&#13;p://evil.example/", "http://evil.example/"],
      ["https:evil.example", "https://evil.example/"],
    ]) {
      expect(renderArticleHtml(`<a href="${written}">x</a>`), written).toBe(away(read!));
    }
    // Markdown's own link syntax percent-encodes the backslash: a character of this site's path,
    // not a separator, as with any percent-encoded one.
    expect(renderArticleHtml("[x](/\\evil.example)")).toBe('<p><a href="/%5Cevil.example">x</a></p>\n');
    expect(renderArticleHtml('<a href="/%5cevil.example">x</a>')).toBe('<p><a href="/%5cevil.example">x</a></p>\n');
    expect(renderArticleHtml('<a href="/%2F%2Fevil.example">x</a>')).toBe('<p><a href="/%2F%2Fevil.example">x</a></p>\n');
  });

  it("writes out an image's address the same way", () => {
    for (const written of ["/\\evil.example/x.png", "\\\\evil.example/x.png", "/&#9;/evil.example/x.png"]) {
      expect(renderArticleHtml(`<img src="${written}" alt="a">`), written).toBe('<img src="https://evil.example/x.png" alt="a" />');
    }
    expect(renderArticleHtml('<img src="//cdn.example/x.png" alt="a">')).toBe('<img src="//cdn.example/x.png" alt="a" />');
  });
});

describe("renderMessageHtml", () => {
  it("keeps the writer's line breaks and puts headings under the page's h2", () => {
    expect(renderMessageHtml("Hi Ada,\nyour refund is on its way.\n\n# Next steps")).toBe(
      "<p>Hi Ada,<br />your refund is on its way.</p>\n<h3>Next steps</h3>\n",
    );
  });
});

describe("renderMessageHtml: images as links, never loaded", () => {
  const evil = "https://collect.example/pixel.png?conversation=ada%40example.com";

  it("shows a Markdown image as a link to it, named by its description", () => {
    expect(renderMessageHtml(`Here it is: ![refund form](${evil})`)).toBe(
      `<p>Here it is: <a href="${evil}" target="_blank" rel="noopener noreferrer">Image: refund form</a></p>\n`,
    );
  });

  it("names an image without a description 'Image', and escapes a description's markup", () => {
    expect(renderMessageHtml(`![](${evil}) ![a <b> & c](https://cdn.example/a.png)`)).toBe(
      `<p><a href="${evil}" target="_blank" rel="noopener noreferrer">Image</a> <a href="https://cdn.example/a.png" target="_blank" rel="noopener noreferrer">Image: a &lt;b&gt; &amp; c</a></p>\n`,
    );
  });

  it("keeps an image inside a link as the link's words, never a link in a link", () => {
    expect(renderMessageHtml(`[![logo](${evil})](https://shop.example/)`)).toBe(
      '<p><a href="https://shop.example/" target="_blank" rel="noopener noreferrer">Image: logo</a></p>\n',
    );
  });

  it("turns a raw HTML image into a link too, and drops a script address", () => {
    expect(renderMessageHtml(`<img src="${evil}" alt="chart" onerror="alert(1)">`)).toBe(
      `<a href="${evil}" target="_blank" rel="noopener noreferrer">Image: chart</a>`,
    );
    expect(renderMessageHtml("![x](javascript:alert(1))")).toBe("<p><a>Image: x</a></p>\n");
  });

  it("leaves no image in a message, while an article keeps its pictures", () => {
    const markdown = `![a](${evil})\n\n- ![b](https://cdn.example/b.png)\n\n| c |\n|---|\n| ![c](/api/images/c.png) |`;
    expect(renderMessageHtml(markdown)).not.toContain("<img");
    expect(renderArticleHtml(markdown)).toContain(`<img src="${evil}" alt="a" />`);
  });
});

describe("markdownLiteral (an article's plain words in a Markdown reply)", () => {
  /** The text a browser shows of `html`, and whether any element but a paragraph or a link (an address in the text) is in it. */
  function shown(html: string): { text: string; tags: string[] } {
    const document = parseDocument(html, { decodeEntities: true });
    return { text: DomUtils.textContent(document).trim(), tags: [...new Set(elements(document.children).map((element) => element.name))] };
  }

  it.each([
    "5 * 3 * 2 = 30, snake_case and a < b stay as written",
    "Click **Save** and _then_ `Done`",
    "1986. The year it began.",
    "2) Second",
    "# not a heading",
    "> not a quote",
    "- not a bullet",
    "+ not a bullet either",
    "---",
    "===",
    "~~not struck~~ but ~5 minutes",
    "AT&T &copy; &#169; &amp;",
    "[not a link](/x) ![not an image](x.png) [ref][1]",
    "a \\ backslash and \\* an escape",
  ])("%s reads as itself", (text) => {
    expect(shown(renderMessageHtml(markdownLiteral(text)))).toEqual({ text, tags: ["p"] });
  });

  it("keeps the words that look like plain text as they are", () => {
    for (const text of [
      "Open Settings → Billing → Invoices.",
      "Choose Forgot password? under the field.",
      "snake_case, a < b, 5 - 3",
      "It costs $5 (or €4) and takes ~5 minutes.",
    ]) {
      expect(markdownLiteral(text)).toBe(text);
    }
  });

  // Every payload of the fixture, as an article's plain words in a reply (its whitespace flattened,
  // as a sentence is): shown as its own text, never as an element that could run script.
  it.each(XSS_PAYLOADS.map((payload) => [payload.name, payload.markdown.replace(/\s+/g, " ")]))("%s is shown as text", (_name, text) => {
    const html = renderMessageHtml(markdownLiteral(text));
    expect(dangers(html)).toEqual([]);
    const { text: seen, tags } = shown(html);
    expect(seen).toBe(text.trim());
    // An http(s) address in the text may become a link to it; nothing else is markup.
    expect(tags.filter((tag) => tag !== "p" && tag !== "a")).toEqual([]);
  });
});

describe("safeLinkUrl", () => {
  it("passes relative URLs and the link schemes, and nothing else, however written", () => {
    expect(LINK_SCHEMES).toEqual(["http", "https", "mailto", "tel"]);
    for (const ok of ["/help/demo", "art-refunds", "#top", "https://example.com", "HTTP://example.com", "mailto:a@b.c", "tel:+15551234"]) {
      expect(safeLinkUrl(ok)).toBe(ok);
    }
    for (const bad of [
      "javascript:alert(1)",
      " JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "\u000ejavascript:x",
      "data:text/html,x",
      "vbscript:x",
    ]) {
      expect(safeLinkUrl(bad)).toBeUndefined();
    }
  });
});
