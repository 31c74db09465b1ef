// Article imports run by the import worker on a real database: a zip of Markdown files (a broken
// file among good ones), re-imports that update instead of duplicating, Zendesk and Intercom
// exports, pages fetched from a local HTTP server, and the SSRF guard refusing a local address.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { deflateSync, strToU8, Zip, ZipPassThrough, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "../src/error-table.ts";
import { importDraftNote } from "../src/knowledge/imports/jobs.ts";
import { ImportRunner } from "../src/knowledge/imports/runner.ts";
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLES_PER_SOURCE_MAX } from "../src/platform/limits.ts";

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

/** A zip whose entries use the given compression methods (8: Deflate, 0: Store, others as stated, the data as given). */
function zipWithMethods(entries: Array<[name: string, method: number, text: string]>): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, method, text] of entries) {
    const entry = new ZipPassThrough(name);
    entry.compression = method;
    zip.add(entry);
    entry.push(method === 8 ? deflateSync(strToU8(text)) : strToU8(text), true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(chunks));
}

/** `count` plain articles in the source, written at once (a source close to its limit). */
async function fillSource(sourceId: string, count: number): Promise<void> {
  await db.prisma.$executeRaw`
    INSERT INTO "Article" ("id", "sourceId", "title", "slug", "content", "updatedAt")
    SELECT ${sourceId} || '-fill-' || n, ${sourceId}, 'Filler ' || n, 'filler-' || n, 'Filler text', now()
    FROM generate_series(1, ${count}::int) AS n`;
}

describe("the summary's note on drafts", () => {
  it("says how many were created as drafts and how to publish them, by kind of import; nothing when none", () => {
    expect(importDraftNote("markdown_zip", 3)).toBe(
      "3 created as drafts: add `published: true` to their front matter and import again, or publish them in the editor",
    );
    expect(importDraftNote("markdown_zip", 1)).toBe(
      "1 created as a draft: add `published: true` to its front matter and import again, or publish it in the editor",
    );
    expect(importDraftNote("urls", 2)).toBe("2 created as drafts: review them and publish them in the editor");
    expect(importDraftNote("zendesk", 1)).toBe("1 created as a draft, as it was in the export: publish it in the editor");
    expect(importDraftNote("markdown_zip", 0)).toBeNull();
  });
});

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
      total: 7,
      processed: 7,
      created: 3,
      updated: 0,
      skipped: 2,
      failed: 2,
      drafts: 2,
    });
    expect(job.report).toEqual([
      { item: "guides/reset-password.md", outcome: "created", articleId: expect.any(String) },
      { item: "guides/Billing FAQ.md", outcome: "created", articleId: expect.any(String) },
      { item: "custom.md", outcome: "created", articleId: expect.any(String) },
      { item: "broken.md", outcome: "failed", reason: "The front matter is not valid YAML" },
      { item: "no-title.md", outcome: "failed", reason: "No title (front matter `title`, a `# heading` or the page's title)" },
      { item: "image.png", outcome: "skipped", reason: "Not a Markdown file (.md)" },
      { item: "__MACOSX/._custom.md", outcome: "skipped", reason: "A hidden or system file (a dot file or macOS metadata)" },
    ]);
    expect(await articlesOf(sourceId)).toEqual([
      { slug: "billing-faq", title: "Billing questions", content: "Invoices are monthly.", published: false, sourceUrl: null },
      { slug: "my-custom-slug", title: "Custom", content: "Body", published: false, sourceUrl: null },
      { slug: "reset-password", title: "Reset your password", content: "Open **Settings**.", published: true, sourceUrl: null },
    ]);
  });

  it("drops a leading heading that repeats the front matter's title, and keeps one that says something else", async () => {
    const sourceId = await newSource();
    const zip = zipSync({
      "repeat.md": md("---\ntitle: Reset your password\n---\n# Reset  your password.\n\nOpen **Settings**."),
      "other.md": md("---\ntitle: Billing\n---\n# Invoices\n\nMonthly."),
    });
    await runImport(sourceId, "markdown_zip", zip);
    expect((await articlesOf(sourceId)).map(({ title, content }) => ({ title, content }))).toEqual([
      { title: "Billing", content: "# Invoices\n\nMonthly." },
      { title: "Reset your password", content: "Open **Settings**." },
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

  it("reports each entry it cannot decompress (bzip2, LZMA) on its own line and imports the others", async () => {
    const sourceId = await newSource();
    const zip = zipWithMethods([
      ["first.md", 8, "# First\n\nOne"],
      ["bzip2.md", 12, "not really bzip2"],
      ["lzma.md", 14, "not really LZMA"],
      ["last.md", 0, "# Last\n\nTwo"],
    ]);
    const job = await runImport(sourceId, "markdown_zip", zip);
    expect(job).toMatchObject({ status: "done", error: null, created: 2, failed: 2 });
    expect(job.report).toEqual([
      { item: "first.md", outcome: "created", articleId: expect.any(String) },
      {
        item: "bzip2.md",
        outcome: "failed",
        reason: "Compression method 12 (bzip2) is not supported: zip the file again with Deflate (the usual) or Store",
      },
      {
        item: "lzma.md",
        outcome: "failed",
        reason: "Compression method 14 (LZMA) is not supported: zip the file again with Deflate (the usual) or Store",
      },
      { item: "last.md", outcome: "created", articleId: expect.any(String) },
    ]);
    expect((await articlesOf(sourceId)).map((a) => a.slug)).toEqual(["first", "last"]);
  });

  it("says when the archive is truncated, importing what it could read, and fails when it could read nothing", async () => {
    const zip = zipSync(
      { "a.md": md(`# A\n\n${"one ".repeat(300)}`), "b.md": md("# B\n\nTwo"), "c.md": md(`# C\n\n${"three ".repeat(300)}`) },
      { level: 0 },
    );
    const damaged = {
      item: "(the archive)",
      outcome: "failed",
      reason: "The archive is damaged or truncated: files after the last one listed may be missing; upload the whole .zip again",
    };
    const cutOff = (item: string) => ({ item, outcome: "failed", reason: "The file is cut off: the archive is damaged or truncated" });

    // Cut in its table of contents (the central directory, at the end): every file was read.
    const inDirectory = await runImport(await newSource(), "markdown_zip", zip.subarray(0, zip.length - 40));
    expect(inDirectory).toMatchObject({ status: "done", created: 3, failed: 1 });
    expect((inDirectory.report as unknown[]).at(-1)).toEqual(damaged);

    // Cut in the middle of the last file: at its text, found as text (a header's time bytes may read as a letter).
    const inFile = await runImport(await newSource(), "markdown_zip", zip.subarray(0, Buffer.from(zip).indexOf("three three")));
    expect(inFile).toMatchObject({ status: "done", created: 2, failed: 2 });
    expect(inFile.report).toEqual([
      { item: "a.md", outcome: "created", articleId: expect.any(String) },
      { item: "b.md", outcome: "created", articleId: expect.any(String) },
      cutOff("c.md"),
      damaged,
    ]);

    // Cut in the middle of the first file: nothing could be read.
    const nothing = await runImport(await newSource(), "markdown_zip", zip.subarray(0, 200));
    expect(nothing).toMatchObject({
      status: "failed",
      created: 0,
      failed: 1,
      error: "The archive is damaged or truncated: no file in it could be read",
    });
    expect(nothing.report).toEqual([cutOff("a.md")]);
  });

  it("reports a file with a NUL character as such, and imports the others", async () => {
    const sourceId = await newSource();
    const job = await runImport(
      sourceId,
      "markdown_zip",
      zipSync({ "nul.md": md("# Nul\n\nText\u0000more"), "fine.md": md("# Fine\n\nOK") }),
    );
    expect(job).toMatchObject({ status: "done", created: 1, failed: 1 });
    expect(job.report).toEqual([
      {
        item: "nul.md",
        outcome: "failed",
        reason: "The content contains a NUL character or invalid Unicode, which cannot be stored: remove it and import again",
      },
      { item: "fine.md", outcome: "created", articleId: expect.any(String) },
    ]);
  });

  it("gives every entry a line: names leading outside the archive are skipped with the reason", async () => {
    const sourceId = await newSource();
    const names = ["../x.md", "..\\y.md", "dir/../../z.md", "/etc/abs.md", "C:\\abs.md", ".hidden.md", "ok.md"];
    const job = await runImport(sourceId, "markdown_zip", zipSync(Object.fromEntries(names.map((name) => [name, md("# T\n\nBody")]))));
    const outside = "The file's path leads outside the archive (`..` or an absolute path), so it was not imported";
    expect(job).toMatchObject({ status: "done", total: 7, created: 1, skipped: 6, failed: 0 });
    expect(job.report).toEqual([
      { item: "../x.md", outcome: "skipped", reason: outside },
      { item: "..\\y.md", outcome: "skipped", reason: outside },
      { item: "dir/../../z.md", outcome: "skipped", reason: outside },
      { item: "/etc/abs.md", outcome: "skipped", reason: outside },
      { item: "C:\\abs.md", outcome: "skipped", reason: outside },
      { item: ".hidden.md", outcome: "skipped", reason: "A hidden or system file (a dot file or macOS metadata)" },
      { item: "ok.md", outcome: "created", articleId: expect.any(String) },
    ]);
  });
});

describe("a help centre's content limits in imports", () => {
  const tooLong = "x".repeat(ARTICLE_CONTENT_MAX_CHARS + 1);
  const overLimit = `The content is longer than ${ARTICLE_CONTENT_MAX_CHARS.toLocaleString("en-US")} characters`;

  it("fails an article over the size limit in every import kind, on its own line", async () => {
    PAGES["/pages/huge"] = `<html><head><title>Huge</title></head><body><main><p>${tooLong}</p></main></body></html>`;
    const kinds = [
      ["markdown_zip", zipSync({ "huge.md": md(`# Huge\n\n${tooLong}`) }), "huge.md"],
      ["zendesk", strToU8(JSON.stringify({ articles: [{ id: 1, title: "Huge", body: `<p>${tooLong}</p>` }] })), "Zendesk article 1"],
      [
        "intercom",
        strToU8(JSON.stringify({ type: "list", data: [{ id: "2", title: "Huge", body: `<p>${tooLong}</p>` }] })),
        "Intercom article 2",
      ],
      ["urls", strToU8(`${base}/pages/huge`), `${base}/pages/huge`],
    ] as const;
    for (const [kind, payload, item] of kinds) {
      const sourceId = await newSource();
      const job = await runImport(sourceId, kind, payload);
      expect(job, kind).toMatchObject({ status: "done", created: 0, failed: 1 });
      expect(job.report, kind).toEqual([{ item, outcome: "failed", reason: overLimit }]);
      expect(await articlesOf(sourceId)).toEqual([]);
    }
  });

  it("stops adding articles to a full source, line by line, while updates go on", async () => {
    const sourceId = await newSource();
    await fillSource(sourceId, ARTICLES_PER_SOURCE_MAX - 2);
    await runImport(sourceId, "markdown_zip", zipSync({ "kept.md": md("# Kept\n\nOne") }));
    const job = await runImport(
      sourceId,
      "markdown_zip",
      zipSync({ "new-1.md": md("# New 1\n\nA"), "new-2.md": md("# New 2\n\nB"), "kept.md": md("# Kept\n\nOne, edited") }),
    );
    expect(job).toMatchObject({ status: "done", error: null, created: 1, updated: 1, failed: 1 });
    expect(job.report).toEqual([
      { item: "new-1.md", outcome: "created", articleId: expect.any(String) },
      { item: "new-2.md", outcome: "failed", reason: ERRORS.ARTICLES_PER_SOURCE_LIMIT.message },
      { item: "kept.md", outcome: "updated", articleId: expect.any(String) },
    ]);
    expect(ERRORS.ARTICLES_PER_SOURCE_LIMIT.message).toBe(
      "This source holds its maximum of 20,000 articles: delete some, or put new ones in another source",
    );
    expect(await db.prisma.article.count({ where: { sourceId } })).toBe(ARTICLES_PER_SOURCE_MAX);
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
