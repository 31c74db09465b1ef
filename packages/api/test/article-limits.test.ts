// A help centre's content limits in the panel: the articles a source may hold (on create, on a move
// to another source, and when two saves race for the last place), and the size of an article when
// an old version is restored.
import { ARTICLE_CONTENT_MAX_CHARS, ARTICLES_PER_SOURCE_MAX } from "@parley/core/limits";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;

beforeAll(async () => {
  ({ ctx, a } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

const FULL = "This source holds its maximum of 20,000 articles: delete some, or put new ones in another source";

/** A new source of workspace a holding `count` plain articles, written at once. */
async function sourceWith(count: number): Promise<string> {
  const { id } = await callerFor(ctx, a.scope).sources.create({ name: `Filled ${Math.random().toString(36).slice(2, 8)}` });
  await ctx.db.prisma.$executeRaw`
    INSERT INTO "Article" ("id", "sourceId", "title", "slug", "content", "updatedAt")
    SELECT ${id} || '-fill-' || n, ${id}, 'Filler ' || n, 'filler-' || n, 'Filler text', now()
    FROM generate_series(1, ${count}::int) AS n`;
  return id;
}

describe("articles per source", () => {
  it("refuses a new article in a full source with 409 and a clear text, storing nothing", async () => {
    const caller = callerFor(ctx, a.scope);
    const sourceId = await sourceWith(ARTICLES_PER_SOURCE_MAX - 1);
    await caller.articles.create({ sourceId, title: "The last place", content: "Fits." });
    await expect(caller.articles.create({ sourceId, title: "One too many", content: "Does not fit." })).rejects.toMatchObject({
      code: "CONFLICT",
      message: FULL,
    });
    expect(await ctx.db.prisma.article.count({ where: { sourceId } })).toBe(ARTICLES_PER_SOURCE_MAX);
    expect(await ctx.db.prisma.article.count({ where: { title: "One too many" } })).toBe(0);
  });

  it("refuses to move an article into a full source, and lets it be edited where it is", async () => {
    const caller = callerFor(ctx, a.scope);
    const full = await sourceWith(ARTICLES_PER_SOURCE_MAX);
    await expect(caller.articles.update({ id: a.articleId, sourceId: full })).rejects.toMatchObject({ code: "CONFLICT", message: FULL });
    expect(await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: a.articleId } })).toMatchObject({ sourceId: a.sourceId });
    const inFull = `${full}-fill-1`;
    expect(await caller.articles.update({ id: inFull, sourceId: full, title: "Edited in place" })).toMatchObject({
      sourceId: full,
      title: "Edited in place",
    });
  });

  it("lets only one of two saves racing for the last place through", async () => {
    const caller = callerFor(ctx, a.scope);
    const sourceId = await sourceWith(ARTICLES_PER_SOURCE_MAX - 1);
    const results = await Promise.allSettled([
      caller.articles.create({ sourceId, title: "Racer one", content: "One." }),
      caller.articles.create({ sourceId, title: "Racer two", content: "Two." }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT", message: FULL } });
    expect(await ctx.db.prisma.article.count({ where: { sourceId } })).toBe(ARTICLES_PER_SOURCE_MAX);
  });
});

describe("article size on restore", () => {
  it("refuses to restore a version longer than an article may be, leaving the article as it is", async () => {
    const caller = callerFor(ctx, a.scope);
    const article = await caller.articles.create({ sourceId: a.sourceId, title: "Sized", content: "Short now." });
    // A version kept from before the limit was lowered.
    const old = await ctx.db.prisma.articleRevision.create({
      data: { articleId: article.id, title: "Sized", content: "x".repeat(ARTICLE_CONTENT_MAX_CHARS + 1), published: false },
    });
    await expect(caller.articles.restoreRevision({ revisionId: old.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This version is longer than an article may be (a title of 200 characters, content of 100,000), so it cannot be restored",
    });
    expect(await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: article.id } })).toMatchObject({ content: "Short now." });
  });
});
