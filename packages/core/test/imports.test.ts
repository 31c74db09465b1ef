// Article imports run by the import worker on a real database: a zip of Markdown files (a broken
// file among good ones), re-imports that update instead of duplicating, Zendesk and Intercom
// exports, pages fetched from a local HTTP server, and the SSRF guard refusing a local address.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "@parley/db/testing";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportRunner } from "../src/imports/runner.ts";

let db: TestDatabase;
let server: Server;
let base: string;
let sourceCount = 0;

const PAGES: Record<string, string> = {
  "/pages/shipping":
    "<html><head><title>Ignored</title></head><body><nav>Menu</nav><main><h1>Shipping times</h1><p>We ship in <strong>2 days</strong>.</p><script>alert(1)</script></main></body></html>",
  "/pages/returns": "<html><head><title>Returns | Acme</title></head><body><article><p>Return within 30 days.</p></article></body></html>",
  "/sitemap.xml": "",
};

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-imp", name: "Imports" } });
  await db.prisma.user.create({ data: { id: "user-imp", workspaceId: "ws-imp", email: "imp@example.com", passwordHash: "x" } });
  server = createServer((req, res) => {
    if (req.url === "/moved") {
      res.writeHead(301, { location: "/pages/returns" }).end();
      return;
    }
    const body = PAGES[req.url ?? ""];
    if (body === undefined) res.writeHead(404).end("nope");
    else res.writeHead(200, { "content-type": req.url?.endsWith(".xml") ? "application/xml" : "text/html" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  PAGES["/sitemap.xml"] =
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/pages/shipping</loc></url><url><loc>${base}/pages/missing</loc></url></urlset>`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

async function newSource(): Promise<string> {
  const source = await db.prisma.source.create({ data: { workspaceId: "ws-imp", name: `Imported ${++sourceCount}` } });
  return source.id;
}

async function runImport(sourceId: string, kind: "markdown_zip" | "urls" | "zendesk" | "intercom", payload: Uint8Array, allowLocal = true) {
  const job = await db.prisma.importJob.create({ data: { sourceId, kind, createdById: "user-imp", payload: new Uint8Array(payload) } });
  await new ImportRunner({ db, allowLocal }).run();
  return db.prisma.importJob.findUniqueOrThrow({ where: { id: job.id } });
}

const articlesOf = (sourceId: string) =>
  db.prisma.article.findMany({
    where: { sourceId },
    orderBy: { slug: "asc" },
    select: { slug: true, title: true, content: true, published: true, sourceUrl: true },
  });

const md = (text: string) => strToU8(text);

describe("a zip of Markdown files", () => {
  it("creates the good files, reports the broken ones and finishes", async () => {
    const sourceId = await newSource();
    const zip = zipSync({
      "guides/reset-password.md": md("---\ntitle: Reset your password\npublished: true\n---\nOpen **Settings**."),
      "guides/Billing FAQ.md": md("# Billing questions\n\nInvoices are monthly."),
      "custom.md": md("---\ntitle: Custom\nslug: my-custom-slug\n---\nBody"),
      "broken.md": md("---\ntitle: [unclosed\n---\nBody"),
      "no-title.md": md("Just text, no heading."),
      "image.png": new Uint8Array([137, 80, 78, 71]),
      "__MACOSX/._custom.md": new Uint8Array([0]),
    });
    const job = await runImport(sourceId, "markdown_zip", zip);
    expect(job).toMatchObject({
      status: "done",
      error: null,
      payload: null,
      total: 6,
      processed: 6,
      created: 3,
      updated: 0,
      skipped: 1,
      failed: 2,
    });
    expect(job.report).toEqual([
      { item: "guides/reset-password.md", outcome: "created", articleId: expect.any(String) },
      { item: "guides/Billing FAQ.md", outcome: "created", articleId: expect.any(String) },
      { item: "custom.md", outcome: "created", articleId: expect.any(String) },
      { item: "broken.md", outcome: "failed", reason: "The front matter is not valid YAML" },
      { item: "no-title.md", outcome: "failed", reason: "No title (front matter `title`, a `# heading` or the page's title)" },
      { item: "image.png", outcome: "skipped", reason: "Not a Markdown file (.md)" },
    ]);
    expect(await articlesOf(sourceId)).toEqual([
      { slug: "billing-faq", title: "Billing questions", content: "Invoices are monthly.", published: false, sourceUrl: null },
      { slug: "my-custom-slug", title: "Custom", content: "Body", published: false, sourceUrl: null },
      { slug: "reset-password", title: "Reset your password", content: "Open **Settings**.", published: true, sourceUrl: null },
    ]);
  });

  it("updates by slug when imported again, instead of duplicating", async () => {
    const sourceId = await newSource();
    const first = zipSync({ "a.md": md("# A\n\nOne"), "b.md": md("# B\n\nTwo") });
    await runImport(sourceId, "markdown_zip", first);
    const again = zipSync({ "a.md": md("# A\n\nOne, edited"), "b.md": md("# B\n\nTwo"), "c.md": md("# C\n\nThree") });
    const job = await runImport(sourceId, "markdown_zip", again);
    expect(job).toMatchObject({ status: "done", created: 1, updated: 1, skipped: 1, failed: 0 });
    expect((await articlesOf(sourceId)).map((a) => [a.slug, a.content])).toEqual([
      ["a", "One, edited"],
      ["b", "Two"],
      ["c", "Three"],
    ]);
  });

  it("fails the job with a reason when the upload is not a zip", async () => {
    const job = await runImport(await newSource(), "markdown_zip", strToU8("not a zip at all"));
    expect(job).toMatchObject({ status: "failed", created: 0, error: "The file is not a .zip archive, or it holds no files" });
  });
});

describe("help desk exports", () => {
  it("imports a Zendesk Help Center export, drafts as drafts, and updates by URL the second time", async () => {
    const sourceId = await newSource();
    const zendesk = {
      articles: [
        {
          id: 360001,
          url: "https://acme.zendesk.com/api/v2/help_center/en-us/articles/360001.json",
          html_url: "https://acme.zendesk.com/hc/en-us/articles/360001-Refunds",
          title: "Refunds",
          body: "<p>Refunds take <em>5 days</em>.</p>",
          draft: false,
          locale: "en-us",
        },
        {
          id: 360002,
          html_url: "https://acme.zendesk.com/hc/en-us/articles/360002-Draft",
          title: "Upcoming",
          body: "<p>Soon</p>",
          draft: true,
        },
        { id: 360003, html_url: "https://acme.zendesk.com/hc/en-us/articles/360003", title: "", body: "<p>No title</p>", draft: false },
      ],
      next_page: null,
      count: 3,
    };
    const job = await runImport(sourceId, "zendesk", strToU8(JSON.stringify(zendesk)));
    expect(job).toMatchObject({ status: "done", created: 2, failed: 1 });
    expect(await articlesOf(sourceId)).toEqual([
      {
        slug: "refunds",
        title: "Refunds",
        content: "Refunds take _5 days_.",
        published: true,
        sourceUrl: "https://acme.zendesk.com/hc/en-us/articles/360001-Refunds",
      },
      {
        slug: "upcoming",
        title: "Upcoming",
        content: "Soon",
        published: false,
        sourceUrl: "https://acme.zendesk.com/hc/en-us/articles/360002-Draft",
      },
    ]);
    zendesk.articles[0]!.title = "Refunds and returns";
    const again = await runImport(sourceId, "zendesk", strToU8(JSON.stringify(zendesk)));
    expect(again).toMatchObject({ created: 0, updated: 1, skipped: 1, failed: 1 });
    expect((await articlesOf(sourceId)).map((a) => a.title)).toEqual(["Refunds and returns", "Upcoming"]);
  });

  it("imports an Intercom articles export", async () => {
    const sourceId = await newSource();
    const intercom = {
      type: "list",
      data: [
        {
          id: "7001",
          type: "article",
          workspace_id: "abc",
          title: "Getting started",
          body: "<h2>Step one</h2><ul><li>Sign up</li></ul>",
          state: "published",
          url: "https://intercom.help/acme/en/articles/7001-getting-started",
          author_id: 1,
        },
        { id: "7002", type: "article", title: "Draft thing", body: "<p>x</p>", state: "draft", url: null },
      ],
      total_count: 2,
      pages: { type: "pages", page: 1, per_page: 50, total_pages: 1 },
    };
    const job = await runImport(sourceId, "intercom", strToU8(JSON.stringify(intercom)));
    expect(job).toMatchObject({ status: "done", created: 2, failed: 0 });
    expect(await articlesOf(sourceId)).toEqual([
      { slug: "draft-thing", title: "Draft thing", content: "x", published: false, sourceUrl: "intercom:7002" },
      {
        slug: "getting-started",
        title: "Getting started",
        content: "## Step one\n\n-   Sign up",
        published: true,
        sourceUrl: "https://intercom.help/acme/en/articles/7001-getting-started",
      },
    ]);
  });

  it("fails the job when the file is not the chosen export", async () => {
    const job = await runImport(await newSource(), "intercom", strToU8(JSON.stringify({ articles: [] })));
    expect(job).toMatchObject({
      status: "failed",
      error: 'The file is not an Intercom articles export (expected {"type": "list", "data": [...]})',
    });
  });
});

describe("URLs and sitemaps", () => {
  it("fetches pages and a sitemap's pages, converts them to Markdown and reports the failures", async () => {
    const sourceId = await newSource();
    const list = `${base}/pages/shipping\n${base}/moved\n\n${base}/sitemap.xml\n`;
    const job = await runImport(sourceId, "urls", strToU8(list));
    expect(job.report).toEqual([
      { item: `${base}/pages/shipping`, outcome: "created", articleId: expect.any(String) },
      { item: `${base}/moved`, outcome: "created", articleId: expect.any(String) },
      { item: `${base}/pages/shipping`, outcome: "skipped", reason: "Unchanged since the last import", articleId: expect.any(String) },
      { item: `${base}/pages/missing`, outcome: "failed", reason: "The server answered 404" },
    ]);
    expect(await articlesOf(sourceId)).toEqual([
      { slug: "returns-acme", title: "Returns | Acme", content: "Return within 30 days.", published: false, sourceUrl: `${base}/moved` },
      {
        slug: "shipping-times",
        title: "Shipping times",
        content: "We ship in **2 days**.",
        published: false,
        sourceUrl: `${base}/pages/shipping`,
      },
    ]);
  });

  it("refuses a local address through the SSRF guard unless local addresses are allowed", async () => {
    const sourceId = await newSource();
    const job = await runImport(sourceId, "urls", strToU8(`${base}/pages/shipping\nhttps://127.0.0.1:1/x`), false);
    expect(job.report).toEqual([
      { item: `${base}/pages/shipping`, outcome: "failed", reason: "The URL must start with https://." },
      {
        item: "https://127.0.0.1:1/x",
        outcome: "failed",
        reason: expect.stringContaining("The URL must not point to a private, loopback or link-local address."),
      },
    ]);
    expect(await articlesOf(sourceId)).toEqual([]);
  });
});
