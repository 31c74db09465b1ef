// What the rendered help pages rely on besides the core reads: page metadata and the sitemap route
// (real database, demo data). Their Markdown rendering is tested with @parley/core/markdown.

import { seed } from "@parley/core/demo";
import { helpArticleUrl, helpPaths } from "@parley/core/help";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpMetadata } from "~/help/metadata.ts";
import { helpSitemapRoute } from "./support/routes.ts";

describe("helpMetadata", () => {
  it("gives title, description, canonical URL and Open Graph tags", () => {
    const metadata = helpMetadata({
      appUrl: "https://help.example.com",
      path: helpPaths.article("demo", "refunds"),
      agentName: "Acme Answers",
      title: "Refunds",
      description: "How refunds work.",
      type: "article",
      modifiedTime: new Date("2026-09-29T13:45:00.000Z"),
    });
    expect(metadata.title).toEqual({ absolute: "Refunds – Acme Answers" });
    expect(metadata.description).toBe("How refunds work.");
    expect(metadata.alternates).toEqual({ canonical: "https://help.example.com/help/demo/articles/refunds" });
    expect(metadata.openGraph).toEqual({
      type: "article",
      title: "Refunds – Acme Answers",
      description: "How refunds work.",
      url: "https://help.example.com/help/demo/articles/refunds",
      siteName: "Acme Answers",
      modifiedTime: "2026-09-29T13:45:00.000Z",
    });
  });

  it("gives an article's other languages as absolute hreflang alternates", () => {
    const metadata = helpMetadata({
      appUrl: "https://help.example.com",
      path: helpPaths.article("demo", "refunds"),
      agentName: "Acme Answers",
      title: "Refunds",
      description: "How refunds work.",
      languages: { en: helpPaths.article("demo", "refunds"), fr: helpPaths.article("demo", "remboursements") },
    });
    expect(metadata.alternates).toEqual({
      canonical: "https://help.example.com/help/demo/articles/refunds",
      languages: {
        en: "https://help.example.com/help/demo/articles/refunds",
        fr: "https://help.example.com/help/demo/articles/remboursements",
      },
    });
  });

  it("keeps a list's language filter in its addresses, before the page number", () => {
    expect(helpPaths.home("demo", "fr")).toBe("/help/demo?lang=fr");
    expect(helpPaths.home("demo")).toBe("/help/demo");
    expect(helpPaths.collection("demo", "src-start", 1, "fr")).toBe("/help/demo/collections/src-start?lang=fr");
    expect(helpPaths.collection("demo", "src-start", 2, "fr")).toBe("/help/demo/collections/src-start?lang=fr&page=2");
  });

  it("encodes ids in paths", () => {
    expect(helpPaths.article("a b", "x/y?z")).toBe("/help/a%20b/articles/x%2Fy%3Fz");
    expect(helpPaths.search("demo", "café & co")).toBe("/help/demo/search?q=caf%C3%A9%20%26%20co");
    expect(helpPaths.collection("demo", "src-start", 2)).toBe("/help/demo/collections/src-start?page=2");
  });

  it("gives an article's absolute address as the engines link it, the same as the page's canonical URL", () => {
    expect(helpArticleUrl("https://help.example.com", "demo", "refunds")).toBe("https://help.example.com/help/demo/articles/refunds");
    expect(helpArticleUrl("https://help.example.com/", "a b", "x/y?z")).toBe("https://help.example.com/help/a%20b/articles/x%2Fy%3Fz");
    const canonical = helpMetadata({
      appUrl: "https://help.example.com",
      path: helpPaths.article("a b", "x/y?z"),
      agentName: "Acme",
      title: "T",
      description: "D",
    }).alternates?.canonical;
    expect(canonical).toBe(helpArticleUrl("https://help.example.com", "a b", "x/y?z"));
  });
});

describe("GET /help/{agentId}/sitemap.xml", () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ appUrl: "https://help.example.com" });
    await seed(ctx.db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it("lists the home page, the collections and every visible article with lastmod", async () => {
    const response = await helpSitemapRoute(ctx, new Request("https://help.example.com/help/demo/sitemap.xml"), { agentId: "demo" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, max-age=30");
    const xml = await response.text();
    const entries = [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(entries).toEqual([
      ["https://help.example.com/help/demo", "2026-10-20T10:00:00.000Z"],
      ["https://help.example.com/help/demo/collections/src-billing", "2026-10-20T10:00:00.000Z"],
      ["https://help.example.com/help/demo/collections/src-start", "2026-10-14T15:30:00.000Z"],
      ["https://help.example.com/help/demo/articles/invoices", "2026-10-20T10:00:00.000Z"],
      ["https://help.example.com/help/demo/articles/api-keys", "2026-10-14T15:30:00.000Z"],
      ["https://help.example.com/help/demo/articles/reset-password", "2026-10-08T08:15:00.000Z"],
      ["https://help.example.com/help/demo/articles/refunds", "2026-09-29T13:45:00.000Z"],
      ["https://help.example.com/help/demo/articles/welcome", "2026-09-15T09:00:00.000Z"],
    ]);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe(true);
  });

  it("gives an article's visible versions in other languages as hreflang alternates, its own included", async () => {
    const make = (slug: string, language: string | null, extra: { translationOfId?: string; published?: boolean; content?: string } = {}) =>
      ctx.db.prisma.article.create({
        data: {
          sourceId: "src-billing",
          title: slug,
          slug,
          content: extra.content ?? "x",
          language,
          published: extra.published ?? true,
          ...extra,
        },
      });
    const original = await make("gift-cards", "en");
    await make("cartes-cadeaux", "fr", { translationOfId: original.id });
    // Left to detection, never detected yet: read from its text.
    await make("tarjetas-regalo", null, {
      translationOfId: original.id,
      content: "Las tarjetas regalo se pueden usar en cualquier pedido de la tienda y no caducan nunca.",
    });
    await make("geschenkkarten", "de", { translationOfId: original.id, published: false });
    await make("lonely-page", "en");

    const response = await helpSitemapRoute(ctx, new Request("https://help.example.com/help/demo/sitemap.xml"), { agentId: "demo" });
    const xml = await response.text();
    const linksOf = (slug: string) => {
      const entry = xml.split("\n").find((line) => line.includes(`<loc>https://help.example.com/help/demo/articles/${slug}</loc>`));
      return [...(entry ?? "").matchAll(/<xhtml:link rel="alternate" hreflang="([a-z]+)" href="([^"]+)"\/>/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
    };
    const url = (slug: string) => `https://help.example.com/help/demo/articles/${slug}`;
    const group = [`en ${url("gift-cards")}`, `fr ${url("cartes-cadeaux")}`, `es ${url("tarjetas-regalo")}`];
    expect(linksOf("gift-cards")).toEqual(group);
    expect(linksOf("cartes-cadeaux")).toEqual([group[1], group[0], group[2]]);
    expect(linksOf("tarjetas-regalo")).toEqual([group[2], group[0], group[1]]);
    // The unpublished German version is named nowhere; an article with no translation has no alternates.
    expect(xml).not.toContain("geschenkkarten");
    expect(linksOf("lonely-page")).toEqual([]);
    expect(xml).toContain(`<loc>${url("lonely-page")}</loc>`);
  });

  it("is the help 404 for an unknown or inactive agent", async () => {
    for (const agentId of ["no-such-agent", "demo-inactive"]) {
      const response = await helpSitemapRoute(ctx, new Request(`https://help.example.com/help/${agentId}/sitemap.xml`), { agentId });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('{"error":"Not found"}');
      expect(response.headers.get("cache-control")).toBe("private, max-age=30");
    }
  });
});
