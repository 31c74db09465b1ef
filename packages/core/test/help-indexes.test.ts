// Help search that scales: on 20,000 articles (ANALYZEd), every help statement is answered from
// the indexes (full-text GIN, trigram GIN, the partial index of visible articles, primary keys),
// never by a sequential scan of "Article". EXPLAIN runs the exact statements the code runs.
import { Prisma } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleArticleSql } from "../src/help/articles.ts";
import { collectionsSql } from "../src/help/collections.ts";
import { helpLanguagesSql, listHelpLanguages, visibleTranslationsSql } from "../src/knowledge/languages/translations.ts";
import {
  type SearchOptions,
  searchVisibleArticles,
  searchVisibleArticlesSql,
  searchWindowStart,
  visibleArticleDatesSql,
} from "../src/knowledge/search/database-search.ts";

const ARTICLES = 20_000;
const SOURCES = 20;
const AGENT = "bulk-agent";

// Help-centre words, so the text has realistic lexemes and trigrams.
const VOCABULARY =
  "account billing invoice payment refund plan upgrade downgrade subscription trial password reset login email " +
  "security two factor authentication workspace member invite role owner admin project file upload download " +
  "storage limit quota usage report export import integration webhook api key token rotate revoke error timeout " +
  "network region backup restore delete archive search filter settings profile notification mobile desktop browser " +
  "cache sync share link permission folder team calendar schedule reminder template theme language timezone currency " +
  "tax receipt card bank transfer discount coupon renewal cancel pause resume support ticket chat phone hours status " +
  "incident maintenance release feature beta roadmap feedback guide tutorial video onboarding checklist migration legacy";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.execScript(`
    INSERT INTO "Workspace" ("id", "name") VALUES ('bulk-ws', 'Bulk');
    INSERT INTO "Agent" ("id", "workspaceId", "name", "updatedAt") VALUES ('${AGENT}', 'bulk-ws', 'Bulk agent', now());
    INSERT INTO "Source" ("id", "workspaceId", "name", "active", "updatedAt")
      SELECT 'bulk-src-' || s, 'bulk-ws', 'Source ' || s, s <> 3, now() FROM generate_series(0, ${SOURCES - 1}) s;
    -- The agent sees half of the sources (one of them inactive).
    INSERT INTO "AgentSource" ("agentId", "sourceId")
      SELECT '${AGENT}', 'bulk-src-' || s FROM generate_series(1, ${SOURCES - 1}, 2) s;
    SELECT setseed(0.42);
    INSERT INTO "Article" ("id", "sourceId", "title", "content", "published", "active", "createdAt", "updatedAt")
      SELECT 'bulk-' || g,
             'bulk-src-' || (g % ${SOURCES}),
             initcap((SELECT string_agg(v.w[1 + floor(random() * array_length(v.w, 1))::int + 0 * n], ' ') FROM generate_series(1, 3 + g % 4) n)),
             (SELECT string_agg(v.w[1 + floor(random() * array_length(v.w, 1))::int + 0 * n], ' ') FROM generate_series(1, 40 + g % 30) n),
             g % 10 <> 0,
             g % 25 <> 0,
             timestamp '2025-01-01' + g * interval '17 minutes',
             timestamp '2025-01-01' + ((g * 7919) % ${ARTICLES}) * interval '13 minutes'
      FROM generate_series(1, ${ARTICLES}) g,
           (SELECT string_to_array('${VOCABULARY}', ' ') AS w) v;
    -- A rare word (and an accented one) in a few articles.
    UPDATE "Article" SET "content" = "content" || ' zephyrine crème brûlée' WHERE ("id" LIKE 'bulk-%5') AND random() < 0.004;
    -- A tenth of the articles are set to a language, and a few of those translate the article before them.
    UPDATE "Article" SET "language" = (ARRAY['en', 'fr', 'es'])[1 + substring("id" from 6)::int % 3] WHERE "id" LIKE 'bulk-%7';
    UPDATE "Article" SET "translationOfId" = 'bulk-' || (substring("id" from 6)::int - 1) WHERE "id" LIKE 'bulk-%17';
    ANALYZE;
  `);
}, 300_000);

afterAll(async () => {
  await db?.close();
});

async function plan(sql: Prisma.Sql): Promise<string> {
  const rows = await db.prisma.$queryRaw<Array<{ "QUERY PLAN": string }>>(Prisma.sql`EXPLAIN ${sql}`);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

function expectIndexed(text: string, indexes: string[]): void {
  expect(text).not.toMatch(/Seq Scan on "Article"/);
  for (const index of indexes) expect(text).toContain(index);
}

describe(`help statements on ${ARTICLES} articles`, () => {
  it("has the data it claims", async () => {
    const [row] = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Article"`);
    expect(row!.count).toBe(ARTICLES);
    expect((await searchVisibleArticles(db, AGENT, "zephyrine", { limit: 50, order: "recent" })).length).toBeGreaterThan(0);
  });

  it("lists the newest visible articles from the partial index, per source", async () => {
    const text = await plan(searchVisibleArticlesSql(AGENT, "", { limit: 50, order: "recent" }));
    expectIndexed(text, ["Article_visible_recent_idx"]);
    expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "", { limit: 50, order: "recent", sourceId: "bulk-src-5" })), [
      "Article_visible_recent_idx",
    ]);
    expectIndexed(await plan(visibleArticleDatesSql(AGENT, 50_000)), ["Article_visible_recent_idx"]);
  });

  it("finds words with the full-text index, by recency and by relevance", async () => {
    for (const order of ["recent", "relevance"] as const) {
      expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "zephyrine", { limit: 50, order })), ["Article_visible_document_idx"]);
      expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "Brûlée", { limit: 50, order })), ["Article_visible_document_idx"]);
    }
    expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "zephyrine tiramisu", { limit: 3, order: "relevance", match: "any" })), [
      "Article_visible_document_idx",
    ]);
  });

  it("finds substrings with the trigram indexes", async () => {
    for (const order of ["recent", "relevance"] as const) {
      expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "ephyri", { limit: 50, order })), [
        "Article_visible_title_trgm_idx",
        "Article_visible_content_trgm_idx",
      ]);
    }
  });

  it("bounds a search window by update time, read from an index", async () => {
    // A first page of 10: a window of 400 of the 8,000 visible articles.
    const options: SearchOptions = { limit: 10, order: "recent" };
    const start = await searchWindowStart(db, AGENT, options);
    expect(start).toBeInstanceOf(Date);
    const text = await plan(searchVisibleArticlesSql(AGENT, "invoice", options, start));
    expectIndexed(text, []);
    // Each of the three branches (words, title, content) reads only the window.
    expect(text.match(/"updatedAt" >= '/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it("answers from the narrowest window that holds the whole answer, as a search of every article would", async () => {
    // A common word fills the first window; a rare one needs every article.
    const recent: SearchOptions = { limit: 50, order: "recent" };
    const narrow = await searchWindowStart(db, AGENT, recent);
    const [first] = await db.prisma.$queryRaw<Array<{ complete: boolean }>>(searchVisibleArticlesSql(AGENT, "invoice", recent, narrow));
    expect(first?.complete).toBe(true);
    const [rare] = await db.prisma.$queryRaw<Array<{ complete: boolean }>>(searchVisibleArticlesSql(AGENT, "zephyrine", recent, narrow));
    expect(rare?.complete).toBe(false);

    const cases: Array<[string, SearchOptions]> = [
      ["invoice", recent],
      ["refund plan", recent],
      ["zephyrine", recent],
      ["voic", recent],
      ["ephyri", recent],
      ["invoice", { limit: 50, order: "recent", sourceId: "bulk-src-5" }],
      ["invoice", { limit: 20, offset: 40, order: "recent" }],
      ["invoice", { limit: 3, order: "relevance" }],
      ["zephyrine", { limit: 3, order: "relevance" }],
      ["invoice zephyrine tiramisu", { limit: 12, order: "relevance", match: "any" }],
    ];
    for (const [query, options] of cases) {
      const everything = await db.prisma.$queryRaw<Array<{ id: string | null }>>(searchVisibleArticlesSql(AGENT, query, options, null));
      const expected = everything.filter((row) => row.id !== null).map((row) => row.id);
      const found = await searchVisibleArticles(db, AGENT, query, options);
      expect(
        found.map((hit) => hit.id),
        `${query} ${JSON.stringify(options)}`,
      ).toEqual(expected);
      if (!["zephyrine", "ephyri"].includes(query)) expect(expected.length).toBeGreaterThan(0);
    }
  });

  it("reads the lists' languages, one language's articles and an article's translations from indexes", async () => {
    expect(await listHelpLanguages(db, AGENT)).toEqual(["en", "es", "fr"]);
    expectIndexed(await plan(helpLanguagesSql(AGENT)), ["Article_visible_language_idx"]);
    expectIndexed(await plan(helpLanguagesSql(AGENT, "bulk-src-7")), ["Article_visible_language_idx"]);
    expectIndexed(await plan(searchVisibleArticlesSql(AGENT, "", { limit: 50, order: "recent", language: "fr" })), [
      "Article_visible_language_idx",
    ]);
    expectIndexed(await plan(collectionsSql(AGENT, undefined, "fr")), ["Article_visible_language_idx"]);
    expectIndexed(await plan(visibleTranslationsSql(AGENT, "bulk-117")), ["Article_translationOfId_idx"]);
  });

  it("counts collections and reads one article by index", async () => {
    expectIndexed(await plan(collectionsSql(AGENT)), ["Article_visible_recent_idx"]);
    expectIndexed(await plan(visibleArticleSql(AGENT, "bulk-15")), ["Article_pkey"]);
  });
});
