// The articles a help search that found nothing offers: visible ones only, the most voted helpful
// first ("not helpful" votes count for nothing), then the newest; at most the limit. Real database.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { HELP_POPULAR_ARTICLES } from "../src/help/limits.ts";
import { listPopularArticles } from "../src/help/popular.ts";

let db: TestDatabase;

/** The demo agent's visible articles (src/demo/data.ts); the others are drafts, archived or unlinked. */
const VISIBLE_DEMO_ARTICLES = ["art-welcome", "art-reset-password", "art-api-keys", "art-refunds", "art-invoices"];

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await db?.close();
});

async function vote(articleId: string, helpful: boolean, voters: number) {
  for (let voter = 0; voter < voters; voter += 1)
    await db.prisma.articleFeedback.create({ data: { articleId, helpful, voterHash: `${articleId}-${helpful}-${voter}` } });
}

describe("listPopularArticles", () => {
  it("offers the newest visible articles while nobody has voted", async () => {
    const newest = await db.prisma.article.findMany({
      where: { id: { in: VISIBLE_DEMO_ARTICLES } },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      select: { id: true },
    });
    const popular = await listPopularArticles(db, "demo", 3);
    expect(popular.map((article) => article.id)).toEqual(newest.slice(0, 3).map((article) => article.id));
    expect(popular[0]).toMatchObject({ sourceName: expect.any(String), slug: expect.any(String), title: expect.any(String) });
  });

  it("puts the most voted helpful first, ignores 'not helpful' votes and hidden articles", async () => {
    await vote("art-invoices", true, 3);
    await vote("art-api-keys", true, 1);
    await vote("art-welcome", false, 5);
    // A draft with many votes (from before it was unpublished) is never offered.
    await vote("art-draft-only", true, 9);
    const popular = (await listPopularArticles(db, "demo")).map((article) => article.id);
    expect(popular.slice(0, 2)).toEqual(["art-invoices", "art-api-keys"]);
    expect(popular.slice(2).sort()).toEqual(["art-refunds", "art-reset-password", "art-welcome"]);
    expect(popular).toHaveLength(Math.min(HELP_POPULAR_ARTICLES, VISIBLE_DEMO_ARTICLES.length));
  });

  it("offers nothing for an agent without a help centre", async () => {
    expect(await listPopularArticles(db, "demo-inactive")).toEqual([]);
    expect(await listPopularArticles(db, "no-such-agent")).toEqual([]);
  });
});
