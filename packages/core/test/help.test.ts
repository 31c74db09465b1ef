// Help-centre reads over the demo data (src/demo/data.ts) and extra fixtures: the visibility rule, the
// collections, reading one article, search (words, substrings, case, accents, relevance,
// recency, cap), and the JSON list's excerpts. Real database, either mode.

import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { getVisibleArticle, listArticleSummaries, parseArticleListQuery } from "../src/help/articles.ts";
import { getCollection, listCollections } from "../src/help/collections.ts";
import { HELP_ARTICLES_PER_LIST } from "../src/help/limits.ts";
import { listVisibleArticleDates, searchVisibleArticles } from "../src/knowledge/search/database-search.ts";
import { findHelpAgent } from "../src/knowledge/visibility.ts";
import { AppError } from "../src/platform/errors.ts";

let db: TestDatabase;

const VISIBLE_DEMO_ARTICLES = ["art-welcome", "art-reset-password", "art-api-keys", "art-refunds", "art-invoices"];
const HIDDEN_DEMO_ARTICLES = ["art-start-draft", "art-start-archived", "art-internal", "art-draft-only", "art-retired"];

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await db?.close();
});

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
const search = (agentId: string, query: string, options: Partial<Parameters<typeof searchVisibleArticles>[3]> = {}) =>
  searchVisibleArticles(db, agentId, query, { limit: 50, order: "recent", ...options });

/** A workspace with one active agent linked to the given sources (created active). */
async function createHelpAgent(prefix: string, sourceIds: string[]): Promise<string> {
  const workspaceId = `${prefix}-ws`;
  await db.prisma.workspace.create({ data: { id: workspaceId, name: prefix } });
  await db.prisma.agent.create({ data: { id: `${prefix}-agent`, workspaceId, name: `${prefix} agent` } });
  for (const sourceId of sourceIds) {
    await db.prisma.source.create({ data: { id: sourceId, workspaceId, name: sourceId } });
    await db.prisma.agentSource.create({ data: { agentId: `${prefix}-agent`, sourceId } });
  }
  return `${prefix}-agent`;
}

describe("visibility on the demo data", () => {
  it("lists exactly the demo agent's two collections with their visible counts, by name", async () => {
    expect(await listCollections(db, "demo")).toEqual([
      { id: "src-billing", name: "Billing", count: 2 },
      { id: "src-start", name: "Getting started", count: 3 },
    ]);
  });

  it("has no collections for an inactive, unlinked or unknown agent", async () => {
    expect(await listCollections(db, "demo-inactive")).toEqual([]);
    expect(await listCollections(db, "demo-disabled")).toEqual([]);
    expect(await listCollections(db, "no-such-agent")).toEqual([]);
  });

  it("finds a single collection only when it is visible and not empty", async () => {
    expect(await getCollection(db, "demo", "src-start")).toEqual({ id: "src-start", name: "Getting started", count: 3 });
    for (const sourceId of ["src-drafts", "src-retired", "src-internal", "nope"]) {
      expect(await getCollection(db, "demo", sourceId)).toBeNull();
    }
    expect(await getCollection(db, "demo-inactive", "src-start")).toBeNull();
  });

  it("reads every visible demo article in full", async () => {
    const article = await getVisibleArticle(db, "demo", "art-refunds");
    expect(article).toMatchObject({
      id: "art-refunds",
      sourceId: "src-billing",
      sourceName: "Billing",
      title: "Refund policy and how to request a refund",
      updatedAt: new Date("2026-09-29T13:45:00.000Z"),
    });
    expect(article?.content).toContain("## Our refund policy");
    for (const id of VISIBLE_DEMO_ARTICLES) expect((await getVisibleArticle(db, "demo", id))?.id).toBe(id);
  });

  it("hides every hidden demo article, and visible ones through other agents", async () => {
    for (const id of [...HIDDEN_DEMO_ARTICLES, "no-such-article"]) expect(await getVisibleArticle(db, "demo", id)).toBeNull();
    // Linked source, but the agent is inactive; active agent, but the source is not linked.
    expect(await getVisibleArticle(db, "demo-inactive", "art-welcome")).toBeNull();
    expect(await getVisibleArticle(db, "demo-disabled", "art-welcome")).toBeNull();
    expect(await getVisibleArticle(db, "no-such-agent", "art-welcome")).toBeNull();
  });

  it("knows which agents have a help centre", async () => {
    expect(await findHelpAgent(db, "demo")).toEqual({ id: "demo", name: "Acme Cloud help assistant" });
    expect(await findHelpAgent(db, "demo-inactive")).toBeNull();
    expect(await findHelpAgent(db, "no-such-agent")).toBeNull();
  });

  it("lists the visible demo articles most recently updated first", async () => {
    expect(ids(await search("demo", ""))).toEqual(["art-invoices", "art-api-keys", "art-reset-password", "art-refunds", "art-welcome"]);
    expect(ids(await search("demo", "   ", { sourceId: "src-billing" }))).toEqual(["art-invoices", "art-refunds"]);
    expect(await search("demo", "", { sourceId: "src-retired" })).toEqual([]);
    expect(await search("demo-inactive", "")).toEqual([]);
    expect((await listVisibleArticleDates(db, "demo", 1000)).map((row) => row.id)).toEqual(ids(await search("demo", "")));
  });

  it("returns the contract's fields for a hit", async () => {
    const [hit] = await search("demo", "", { sourceId: "src-billing", limit: 1 });
    expect(Object.keys(hit!).sort()).toEqual(["content", "id", "language", "rank", "slug", "sourceId", "sourceName", "title", "updatedAt"]);
    expect(hit).toMatchObject({ id: "art-invoices", sourceId: "src-billing", sourceName: "Billing", rank: 0 });
    expect(hit!.updatedAt).toBeInstanceOf(Date);
  });
});

describe("search", () => {
  it("matches a title word, stemmed, and never a hidden article with the same word", async () => {
    // "refund" is also in art-internal and art-draft-only ("refundable"), both hidden; art-invoices
    // mentions refunds in its content, so it comes second by relevance (first by recency).
    expect(ids(await search("demo", "refund"))).toEqual(["art-invoices", "art-refunds"]);
    expect(ids(await search("demo", "refunds", { order: "relevance" }))).toEqual(["art-refunds", "art-invoices"]);
    // "API" is in art-retired's title (inactive source) and art-start-archived (inactive article).
    expect(ids(await search("demo", "API tokens"))).not.toContain("art-retired");
  });

  it("matches a word that is only in the content", async () => {
    expect(ids(await search("demo", "spam"))).toEqual(["art-reset-password"]);
    // Also in the content of art-start-draft, which is unpublished.
    expect(ids(await search("demo", "okta"))).toEqual(["art-reset-password"]);
  });

  it("matches a substring inside a word", async () => {
    expect(ids(await search("demo", "ccountan"))).toEqual(["art-invoices"]);
    expect(ids(await search("demo", "AC-2026-004"))).toEqual(["art-invoices"]);
  });

  it("is case-insensitive", async () => {
    expect(ids(await search("demo", "SPAM"))).toEqual(["art-reset-password"]);
    expect(ids(await search("demo", "PASSWORD"))).toContain("art-reset-password");
    expect(ids(await search("demo", "CCOUNTAN"))).toEqual(["art-invoices"]);
  });

  it("is accent-insensitive both ways, for words and substrings", async () => {
    const agentId = await createHelpAgent("accents", ["accents-src"]);
    await db.prisma.article.create({
      data: {
        id: "accents-cafe",
        sourceId: "accents-src",
        title: "Le café",
        content: "Notre crème brûlée est servie au Café de Flore.",
        published: true,
      },
    });
    await db.prisma.article.create({
      data: { id: "accents-plain", sourceId: "accents-src", title: "Plain cafe", content: "A resume of the naive cafe.", published: true },
    });
    for (const q of ["cafe", "CAFÉ", "Café", "café"])
      expect(ids(await search(agentId, q)).sort()).toEqual(["accents-cafe", "accents-plain"]);
    expect(ids(await search(agentId, "creme brulee"))).toEqual(["accents-cafe"]);
    expect(ids(await search(agentId, "RÛLÉ"))).toEqual(["accents-cafe"]);
    expect(ids(await search(agentId, "résumé"))).toEqual(["accents-plain"]);
  });

  it("takes LIKE wildcards in the query literally", async () => {
    const agentId = await createHelpAgent("wild", ["wild-src"]);
    await db.prisma.article.create({
      data: { id: "wild-1", sourceId: "wild-src", title: "Discounts", content: "Save 100% on day one.", published: true },
    });
    await db.prisma.article.create({
      data: { id: "wild-2", sourceId: "wild-src", title: "Other", content: "Save 1000 coins.", published: true },
    });
    await db.prisma.article.create({
      data: { id: "wild-3", sourceId: "wild-src", title: "Files", content: "Use file_name or filename.", published: true },
    });
    expect(ids(await search(agentId, "00%"))).toEqual(["wild-1"]);
    expect(ids(await search(agentId, "%%%"))).toEqual([]);
    expect(ids(await search(agentId, "e_n"))).toEqual(["wild-3"]);
    expect(ids(await search(agentId, "\\"))).toEqual([]);
  });

  it("takes literally the wildcards that accent folding makes (fullwidth ％ ＿ ﹪ ＼ and every compatibility form of % _ \\)", async () => {
    const agentId = await createHelpAgent("fold-wild", ["fold-wild-src"]);
    await db.prisma.article.create({
      data: { id: "fold-plain", sourceId: "fold-wild-src", title: "Plain cafe", content: "Open every day.", published: true },
    });
    await db.prisma.article.create({
      data: { id: "fold-percent", sourceId: "fold-wild-src", title: "Discounts", content: "Save 100%%% today.", published: true },
    });
    // Every character that NFKC (the family of unaccent's foldings) turns into %, _ or \.
    const wildcards: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (/[%_\\]/.test(char.normalize("NFKC"))) wildcards.push(char);
    }
    expect(wildcards).toEqual(expect.arrayContaining(["％", "＿", "﹪", "＼"]));
    for (const wildcard of wildcards) {
      // As wildcards these would list every article, or match "cafe" through "ca_e"; taken
      // literally, only the article with "%%%" in it can match (a folded % is a %).
      for (const q of [wildcard.repeat(3), `ca${wildcard}e`, `${wildcard}${wildcard}a`]) {
        const found = ids(await search(agentId, q));
        expect(found, `${q} (U+${wildcard.codePointAt(0)!.toString(16)})`).toEqual(found.length === 0 ? [] : ["fold-percent"]);
      }
    }
    for (const q of ["％％％", "﹪﹪﹪", "0%％"]) expect(ids(await search(agentId, q)), q).toEqual(["fold-percent"]);
    for (const q of ["＿＿＿", "＼＼＼", "ca＿e", "ca﹍e"]) expect(ids(await search(agentId, q)), q).toEqual([]);
  });

  it("ranks title matches above content matches, substring-only matches last", async () => {
    const agentId = await createHelpAgent("rank", ["rank-src"]);
    const base = new Date("2026-01-01T00:00:00.000Z").getTime();
    const rows = [
      // Newest first by time, so relevance visibly differs from recency.
      { id: "rank-substring", title: "Misc", content: "Resubscriptions happen monthly.", at: 4 },
      { id: "rank-content", title: "Plans", content: "How a subscription renews.", at: 3 },
      { id: "rank-title", title: "Your subscriptions", content: "Everything about them.", at: 2 },
    ];
    for (const row of rows) {
      await db.prisma.article.create({
        data: {
          id: row.id,
          sourceId: "rank-src",
          title: row.title,
          content: row.content,
          published: true,
          updatedAt: new Date(base + row.at * 1000),
        },
      });
    }
    // "subscriptions" stems to the same word as "subscription"; "resubscriptions" does not, it
    // only contains the query.
    const relevance = await search(agentId, "subscription", { order: "relevance" });
    expect(ids(relevance)).toEqual(["rank-title", "rank-content", "rank-substring"]);
    expect(relevance[0]!.rank).toBeGreaterThan(relevance[1]!.rank);
    expect(relevance[1]!.rank).toBeGreaterThan(0);
    expect(relevance[2]!.rank).toBe(0);
    // All substring-only: title matches first, then the newest.
    const substringOnly = await search(agentId, "ubscripti", { order: "relevance" });
    expect(ids(substringOnly)).toEqual(["rank-title", "rank-substring", "rank-content"]);
    expect(substringOnly.map((hit) => hit.rank)).toEqual([0, 0, 0]);
    expect(ids(await search(agentId, "subscription", { order: "recent" }))).toEqual(["rank-substring", "rank-content", "rank-title"]);
  });

  it("caps the list at 50, most recently updated first, ties broken by id, across sources", async () => {
    const agentId = await createHelpAgent("many", ["many-a", "many-b"]);
    const base = new Date("2026-03-01T00:00:00.000Z").getTime();
    const data = Array.from({ length: 60 }, (_, i) => ({
      id: `many-${String(i).padStart(2, "0")}`,
      sourceId: i % 2 === 0 ? "many-a" : "many-b",
      title: `Article ${i} about widgets`,
      content: `Widget notes number ${i}.`,
      published: true,
      // Pairs share a timestamp: the id decides between them.
      updatedAt: new Date(base + Math.floor(i / 2) * 60_000),
    }));
    await db.prisma.article.createMany({ data });
    const expected = [...data]
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, HELP_ARTICLES_PER_LIST)
      .map((row) => row.id);
    expect(expected[0]).toBe("many-58");
    expect(ids(await search(agentId, ""))).toEqual(expected);
    expect(ids(await search(agentId, "widgets"))).toEqual(expected);
    expect(ids(await search(agentId, "idge"))).toEqual(expected);
    // Paging (collection pages) continues where the first page stopped.
    const second = await search(agentId, "", { offset: 50 });
    expect(ids(second)).toEqual(
      [...data]
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(50)
        .map((row) => row.id),
    );
    expect(await listCollections(db, agentId)).toEqual([
      { id: "many-a", name: "many-a", count: 30 },
      { id: "many-b", name: "many-b", count: 30 },
    ]);
  });

  it("stops showing an article as soon as it is unpublished or archived, or its source is unlinked", async () => {
    const agentId = await createHelpAgent("toggle", ["toggle-src"]);
    await db.prisma.article.create({
      data: { id: "toggle-1", sourceId: "toggle-src", title: "Toggle me", content: "Body.", published: true },
    });
    expect(ids(await search(agentId, "toggle"))).toEqual(["toggle-1"]);
    await db.prisma.article.update({ where: { id: "toggle-1" }, data: { published: false } });
    expect(await search(agentId, "toggle")).toEqual([]);
    expect(await getVisibleArticle(db, agentId, "toggle-1")).toBeNull();
    await db.prisma.article.update({ where: { id: "toggle-1" }, data: { published: true, active: false } });
    expect(await getVisibleArticle(db, agentId, "toggle-1")).toBeNull();
    await db.prisma.article.update({ where: { id: "toggle-1" }, data: { active: true } });
    expect((await getVisibleArticle(db, agentId, "toggle-1"))?.id).toBe("toggle-1");
    await db.prisma.agentSource.delete({ where: { agentId_sourceId: { agentId, sourceId: "toggle-src" } } });
    expect(await getVisibleArticle(db, agentId, "toggle-1")).toBeNull();
    expect(await listCollections(db, agentId)).toEqual([]);
  });

  it("rejects a limit that is not a positive integer", async () => {
    await expect(search("demo", "", { limit: 0 })).rejects.toThrow(RangeError);
  });
});

describe("article list query and summaries", () => {
  it("trims q, treats blank as no filter and refuses more than 100 characters", () => {
    expect(parseArticleListQuery(new URLSearchParams("q=%20%20refund%20&source=src-billing"))).toEqual({
      q: "refund",
      source: "src-billing",
      sort: "recent",
    });
    expect(parseArticleListQuery(new URLSearchParams("q=%20%20&source="))).toEqual({ q: "", source: undefined, sort: "recent" });
    expect(parseArticleListQuery(new URLSearchParams(`q=${"é".repeat(100)}`)).q).toHaveLength(100);
    let error: unknown;
    try {
      parseArticleListQuery(new URLSearchParams(`q=${"a".repeat(101)}`));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).toBody()).toEqual({ error: "Invalid request", details: "q: must be at most 100 characters" });
  });

  it("refuses q and source holding text the database cannot store, with the one rule's wording", () => {
    const details = (params: URLSearchParams) => {
      try {
        parseArticleListQuery(params);
      } catch (error) {
        return (error as AppError).toBody();
      }
      return null;
    };
    const RULE = "must be valid Unicode text without NUL characters";
    expect(details(new URLSearchParams("q=a%00b"))).toEqual({ error: "Invalid request", details: `q: ${RULE}` });
    expect(details(new URLSearchParams("source=src%00"))).toEqual({ error: "Invalid request", details: `source: ${RULE}` });
    // URLSearchParams holds Unicode only (a lone surrogate becomes U+FFFD), which is storable.
    expect(details(new URLSearchParams({ q: "lone \ud800" }))).toBeNull();
    expect(details(new URLSearchParams({ q: "smile \u{1F600}" }))).toBeNull();
  });

  it("gives plain-text excerpts of about 200 characters, around the match when searching", async () => {
    const all = await listArticleSummaries(db, "demo", { q: "", source: undefined, sort: "recent" });
    expect(all.map((row) => row.id)).toEqual(["art-invoices", "art-api-keys", "art-reset-password", "art-refunds", "art-welcome"]);
    for (const summary of all) {
      expect(Object.keys(summary)).toEqual(["id", "sourceId", "title", "excerpt"]);
      expect(summary.excerpt.length).toBeGreaterThan(150);
      expect(summary.excerpt.length).toBeLessThanOrEqual(202);
      expect(summary.excerpt).not.toMatch(/[*#`]|\]\(/);
    }
    const apiKeys = all.find((row) => row.id === "art-api-keys")!;
    expect(apiKeys.excerpt.startsWith("API keys let your scripts, servers and integrations call the Acme Cloud HTTP API")).toBe(true);
    expect(apiKeys.excerpt.endsWith("…")).toBe(true);
    // "accountant" also matches "account" (stemmed) elsewhere, ranked first; the excerpt shows the exact match.
    const hit = (await listArticleSummaries(db, "demo", { q: "accountant", source: undefined, sort: "relevance" })).find(
      (row) => row.id === "art-invoices",
    );
    expect(hit!.excerpt).toMatch(/^….*accountant.*…$/);
  });
});
