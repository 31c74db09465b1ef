// The help centre's search (searchHelpCentre): articles ranked by the knowledge agent's analysis
// (stems, typos, synonyms, any word), aggregated from passages, over the demo data and extra
// fixtures in a real database: natural questions, typo corrections and the "Did you mean" query,
// the closest matches when no article has every word, both orders, the filters, and the
// visibility rule (hidden, unpublished, inactive and unlinked articles never appear).

import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { searchVisibleArticles } from "../src/knowledge/search/database-search.ts";
import { rankHelpArticleIds, searchHelpCentre } from "../src/knowledge/search/help-search.ts";

let db: TestDatabase;

const HIDDEN_DEMO_ARTICLES = ["art-start-draft", "art-start-archived", "art-internal", "art-draft-only", "art-retired"];
const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
const search = (query: string, options: Partial<Parameters<typeof searchHelpCentre>[3]> = {}, agentId = "demo") =>
  searchHelpCentre(db, agentId, query, { limit: 50, ...options });

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await db?.close();
});

describe("natural questions", () => {
  it("finds the article of a question whose words are not all in it, first", async () => {
    for (const question of ["can I get reimbursed for my yearly subscription", "how do I get a reimbursement after cancelling"]) {
      // The database's all-words search finds nothing for it.
      expect(await searchVisibleArticles(db, "demo", question, { limit: 50, order: "relevance" }), question).toEqual([]);
      const found = await search(question);
      expect(found.articles[0]?.id, question).toBe("art-refunds");
      expect(found.correctedQuery).toBeNull();
    }
    expect((await search("how do I get my money back after cancelling")).articles[0]?.id).toBe("art-refunds");
  });

  it("ranks other natural questions' articles first", async () => {
    const cases: Array<[string, string]> = [
      ["I forgot my password and can't log in", "art-reset-password"],
      ["where can I download my invoices", "art-invoices"],
      ["how to create a new api key for my server", "art-api-keys"],
    ];
    for (const [question, expected] of cases) expect((await search(question)).articles[0]?.id, question).toBe(expected);
  });

  it("gives the eval the ranked ids (best first)", async () => {
    const ranked = await rankHelpArticleIds(db, "demo", "how do I get my money back after cancelling");
    expect(ranked[0]).toBe("art-refunds");
    expect(ranked).toEqual(ids((await search("how do I get my money back after cancelling")).articles));
    expect(await rankHelpArticleIds(db, "demo", "how do I get my money back after cancelling", 1)).toEqual(["art-refunds"]);
  });
});

describe("typos", () => {
  it("finds the article through a corrected word and says which query it read", async () => {
    const found = await search("refnud policy");
    expect(found.articles[0]?.id).toBe("art-refunds");
    expect(found.correctedQuery).toBe("refund policy");
    expect(found.everyWord).toBe(true);
  });

  it("keeps the rest of the query as typed", async () => {
    const found = await search("Request a REFNUD, please!");
    expect(found.articles[0]?.id).toBe("art-refunds");
    expect(found.correctedQuery).toBe("Request a refund, please!");
  });

  it("corrects nothing when every word is known", async () => {
    expect((await search("refund policy")).correctedQuery).toBeNull();
  });
});

describe("closest matches", () => {
  it("says when no article holds every word, and still lists the closest", async () => {
    const found = await search("refund bitcoin");
    expect(found.articles[0]?.id).toBe("art-refunds");
    expect(found.everyWord).toBe(false);
    expect((await search("refund")).everyWord).toBe(true);
  });

  it("finds nothing for a query nothing matches", async () => {
    expect(await search("zyxwvut qqqq")).toEqual({ articles: [], correctedQuery: null, everyWord: false });
  });

  it("still finds part of a word, as the database search does", async () => {
    expect(ids((await search("ccountan")).articles)).toEqual(["art-invoices"]);
  });
});

describe("orders and filters", () => {
  it("lists the same matches best first or most recently updated first", async () => {
    const relevance = await search("refund", { order: "relevance" });
    const recent = await search("refund", { order: "recent" });
    expect(relevance.articles[0]?.id).toBe("art-refunds");
    expect(new Set(ids(recent.articles))).toEqual(new Set(ids(relevance.articles)));
    const times = recent.articles.map((article) => article.updatedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(ids(recent.articles).indexOf("art-invoices")).toBeLessThan(ids(recent.articles).indexOf("art-refunds"));
  });

  it("pages: limit and offset cut the same ranking", async () => {
    const all = ids((await search("account")).articles);
    expect(all.length).toBeGreaterThan(2);
    expect(ids((await search("account", { limit: 1 })).articles)).toEqual(all.slice(0, 1));
    expect(ids((await search("account", { limit: 2, offset: 1 })).articles)).toEqual(all.slice(1, 3));
  });

  it("filters by source", async () => {
    expect(ids((await search("refund", { sourceId: "src-billing" })).articles).sort()).toEqual(["art-invoices", "art-refunds"]);
    expect((await search("refund", { sourceId: "src-start" })).articles.every((article) => article.sourceId === "src-start")).toBe(true);
    for (const sourceId of ["src-internal", "src-retired", "nope"]) expect((await search("refund", { sourceId })).articles).toEqual([]);
  });

  it("filters by language (set or detected, as the lists do)", async () => {
    await db.prisma.workspace.create({ data: { id: "lang-ws", name: "Languages" } });
    await db.prisma.agent.create({ data: { id: "lang-agent", workspaceId: "lang-ws", name: "Languages" } });
    await db.prisma.source.create({ data: { id: "lang-src", workspaceId: "lang-ws", name: "Guides" } });
    await db.prisma.agentSource.create({ data: { agentId: "lang-agent", sourceId: "lang-src" } });
    await db.prisma.article.createMany({
      data: [
        { id: "lang-en", title: "Refund policy", content: "How to request a refund of a payment.", language: "en" },
        { id: "lang-fr", title: "Remboursement", content: "Demander le remboursement d'un paiement (refund).", language: "fr" },
      ].map((row) => ({ ...row, sourceId: "lang-src", slug: row.id, published: true })),
    });
    const find = async (language?: "en" | "fr") => ids((await search("refund", { language }, "lang-agent")).articles);
    expect((await find()).sort()).toEqual(["lang-en", "lang-fr"]);
    expect(await find("en")).toEqual(["lang-en"]);
    expect(await find("fr")).toEqual(["lang-fr"]);
  });

  it("a blank query lists every visible article, most recently updated first", async () => {
    const blank = await search("   ");
    expect(ids(blank.articles)).toEqual(["art-invoices", "art-api-keys", "art-reset-password", "art-refunds", "art-welcome"]);
    expect(blank.correctedQuery).toBeNull();
  });
});

describe("visibility", () => {
  it("finds nothing, without an error, for an agent that does not exist", async () => {
    for (const agentId of ["%", "no-such-agent"]) {
      for (const q of ["%", "refund", "how do I get my money back"]) {
        expect((await searchHelpCentre(db, agentId, q, { limit: 50, order: "recent" })).articles, `${agentId} ${q}`).toEqual([]);
      }
    }
  });

  it("never shows a hidden demo article, whatever the query", async () => {
    const queries = [
      "support runbook refunds account access",
      "single sign-on SSO okta",
      "legacy v1 api tokens",
      "storage add-on pricing draft",
      "classic dashboard account settings",
      "runbok",
      "how do I get my money back after cancelling",
    ];
    for (const q of queries) {
      for (const order of ["relevance", "recent"] as const) {
        const found = ids((await search(q, { order })).articles);
        for (const hidden of HIDDEN_DEMO_ARTICLES) expect(found, `${q} (${order})`).not.toContain(hidden);
      }
    }
  });

  it("drops an article at once when it is unpublished, its source deactivated or unlinked, or the agent deactivated", async () => {
    await db.prisma.workspace.create({ data: { id: "vis-ws", name: "Visibility" } });
    await db.prisma.agent.create({ data: { id: "vis-agent", workspaceId: "vis-ws", name: "Visibility" } });
    await db.prisma.source.create({ data: { id: "vis-src", workspaceId: "vis-ws", name: "Guides" } });
    await db.prisma.agentSource.create({ data: { agentId: "vis-agent", sourceId: "vis-src" } });
    await db.prisma.article.createMany({
      data: [
        { id: "vis-1", title: "Exporting timesheets", content: "Export your timesheets as a spreadsheet.", published: true },
        { id: "vis-2", title: "Printing schedules", content: "Print the week's schedule for the wall.", published: true },
      ].map((row) => ({ ...row, sourceId: "vis-src", slug: row.id })),
    });
    const find = async (q: string) => ids((await search(q, {}, "vis-agent")).articles);
    expect(await find("how do I export my timesheets")).toEqual(["vis-1"]);

    await db.prisma.article.update({ where: { id: "vis-1" }, data: { published: false } });
    expect(await find("how do I export my timesheets")).toEqual([]);
    await db.prisma.article.update({ where: { id: "vis-1" }, data: { published: true, active: false } });
    expect(await find("how do I export my timesheets")).toEqual([]);
    await db.prisma.article.update({ where: { id: "vis-1" }, data: { active: true } });
    expect(await find("how do I export my timesheets")).toEqual(["vis-1"]);

    await db.prisma.source.update({ where: { id: "vis-src" }, data: { active: false } });
    expect(await find("print the schedule")).toEqual([]);
    await db.prisma.source.update({ where: { id: "vis-src" }, data: { active: true } });
    expect(await find("print the schedule")).toEqual(["vis-2"]);

    await db.prisma.agent.update({ where: { id: "vis-agent" }, data: { active: false } });
    expect(await find("print the schedule")).toEqual([]);
    await db.prisma.agent.update({ where: { id: "vis-agent" }, data: { active: true } });

    await db.prisma.agentSource.delete({ where: { agentId_sourceId: { agentId: "vis-agent", sourceId: "vis-src" } } });
    expect(await find("print the schedule")).toEqual([]);
    // Another agent's articles are not this agent's.
    expect(ids((await search("print the schedule")).articles)).not.toContain("vis-2");
  });
});
