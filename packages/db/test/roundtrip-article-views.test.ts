// Help-centre article views per day round-trip every field through the Prisma client (as
// roundtrip.test.ts does for the others): one row per article and UTC day, removed with the article.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-views", name: "Views" } });
  await db.prisma.source.create({ data: { id: "src-views", workspaceId: "ws-views", name: "Help" } });
  await db.prisma.article.create({ data: { id: "art-views", sourceId: "src-views", title: "Read me", content: "Text." } });
});
afterAll(async () => {
  await db.close();
});

describe("article views round-trip every field", () => {
  it("ArticleViewDay: a day (a date, no time) and its views, up to the largest int", async () => {
    for (const [day, views] of [
      ["2026-11-28", 1],
      ["2026-12-31", 2_147_483_647],
    ] as const) {
      const row = { articleId: "art-views", day: new Date(`${day}T00:00:00.000Z`), views };
      await db.prisma.articleViewDay.create({ data: row });
      const read = await db.prisma.articleViewDay.findUniqueOrThrow({
        where: { articleId_day: { articleId: row.articleId, day: row.day } },
      });
      expectAllFields("ArticleViewDay", row, read);
    }
  });

  it("one row per article and day, removed with the article; a new article has no views", async () => {
    await expect(
      db.prisma.articleViewDay.create({ data: { articleId: "art-views", day: new Date("2026-11-28T00:00:00.000Z"), views: 3 } }),
    ).rejects.toThrow();
    expect((await db.prisma.article.findUniqueOrThrow({ where: { id: "art-views" } })).viewCount).toBe(0);
    await db.prisma.article.delete({ where: { id: "art-views" } });
    expect(await db.prisma.articleViewDay.count({ where: { articleId: "art-views" } })).toBe(0);
  });
});
