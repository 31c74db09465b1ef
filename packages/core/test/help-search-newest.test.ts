// The help centre's search for an agent with more visible articles than its in-process index holds
// (here 2, so the demo help centre has more): the index answers the agent from its newest
// articles, but a help search must find every visible article, so it searches the database.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { searchHelpCentre } from "../src/knowledge/search/help-search.ts";

vi.mock("../src/knowledge/limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/knowledge/limits.ts")>()),
  KNOWLEDGE_INDEX_MAX_ARTICLES: 2,
}));

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await db?.close();
});

it("finds the oldest visible article, which the index does not hold, in either order", async () => {
  const visible = ["art-welcome", "art-reset-password", "art-api-keys", "art-refunds", "art-invoices"];
  const oldest = await db.prisma.article.findFirstOrThrow({ where: { id: { in: visible } }, orderBy: { updatedAt: "asc" } });
  const newest = await db.prisma.article.findFirstOrThrow({ where: { id: { in: visible } }, orderBy: { updatedAt: "desc" } });
  const wordOf = (title: string) => title.split(/\W+/).find((part) => part.length > 4)!;
  // A word of each: the index holds the newest, so searched alone it would find only that one.
  const query = `${wordOf(oldest.title)} ${wordOf(newest.title)}`;
  for (const order of ["relevance", "recent"] as const) {
    const found = await searchHelpCentre(db, "demo", query, { limit: 50, order });
    expect(
      found.articles.map((article) => article.id),
      `${query}, ${order}`,
    ).toContain(oldest.id);
  }
});
