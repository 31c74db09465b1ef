// The help centre's search for an agent over the in-process index's memory budget (here a budget
// of a few kilobytes, so the demo help centre is over it): the database's full-text search with any
// word matching, so a natural question still finds its article; the visibility rule holds.

import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { knowledgeIndexStatus } from "../src/knowledge/search/agent-index.ts";
import { searchVisibleArticles } from "../src/knowledge/search/database-search.ts";
import { searchHelpCentre } from "../src/knowledge/search/help-search.ts";

vi.mock("../src/knowledge/limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/knowledge/limits.ts")>()),
  KNOWLEDGE_INDEX_MAX_TEXT_BYTES: 4_096,
}));

let db: TestDatabase;
const HIDDEN_DEMO_ARTICLES = ["art-start-draft", "art-start-archived", "art-internal", "art-draft-only", "art-retired"];
const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await db?.close();
});

describe("over the index's memory budget", () => {
  it("is searched in the database", async () => {
    expect((await knowledgeIndexStatus(db, "demo")).search).toBe("database");
  });

  it("finds a question's article with any word matching, where all words find nothing", async () => {
    const question = "can I get reimbursed for my annual refund";
    expect(await searchVisibleArticles(db, "demo", question, { limit: 50, order: "relevance" })).toEqual([]);
    const found = await searchHelpCentre(db, "demo", question, { limit: 50 });
    expect(found.articles[0]?.id).toBe("art-refunds");
    expect(found.everyWord).toBe(false);
    expect(found.correctedQuery).toBeNull();
    expect((await searchHelpCentre(db, "demo", "refund", { limit: 50 })).everyWord).toBe(true);
  });

  it("finds a part of a word, as the search of an indexed help centre does", async () => {
    const found = await searchHelpCentre(db, "demo", "ccountan", { limit: 50 });
    expect(ids(found.articles)).toEqual(["art-invoices"]);
    expect(found.everyWord).toBe(true);
  });

  it("lists the matches most recently updated first, or filtered by source", async () => {
    const recent = await searchHelpCentre(db, "demo", "refund invoices", { limit: 50, order: "recent" });
    const times = recent.articles.map((article) => article.updatedAt.getTime());
    expect(recent.articles.length).toBeGreaterThan(1);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await searchHelpCentre(db, "demo", "refund", { limit: 50, sourceId: "src-start" })).articles).toEqual([]);
  });

  it("never shows a hidden article", async () => {
    for (const q of ["support runbook refunds account access", "legacy v1 api tokens", "storage add-on pricing draft"]) {
      const found = ids((await searchHelpCentre(db, "demo", q, { limit: 50 })).articles);
      for (const hidden of HIDDEN_DEMO_ARTICLES) expect(found, q).not.toContain(hidden);
    }
  });
});
