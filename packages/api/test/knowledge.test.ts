// sources.* and articles.* procedures through createCaller on a real database: counts, agent
// links, publishing, archiving, search, validation and workspace isolation.
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, NOW, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

describe("sources", () => {
  it("lists the workspace's sources with article counts and linked agents", async () => {
    await ctx.db.prisma.article.createMany({
      data: [
        { sourceId: a.sourceId, title: "Draft", content: "x" },
        { sourceId: a.sourceId, title: "Archived", content: "x", published: true, active: false },
      ],
    });
    expect(await callerFor(ctx, a.scope).sources.list()).toEqual([
      {
        id: a.sourceId,
        name: "alpha source",
        active: true,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
        articleCount: 3,
        publishedCount: 1,
        agentIds: [a.agentId],
      },
    ]);
  });

  it("creates, renames, deactivates and links a source", async () => {
    const caller = callerFor(ctx, a.scope);
    const created = await caller.sources.create({ name: " FAQ " });
    expect(created).toMatchObject({ name: "FAQ", active: true, articleCount: 0, publishedCount: 0, agentIds: [] });
    expect(await ctx.db.prisma.source.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ workspaceId: a.scope.workspaceId });

    expect(await caller.sources.update({ id: created.id, name: "Questions", active: false })).toMatchObject({
      name: "Questions",
      active: false,
    });

    const second = await caller.agents.create({ name: "Second" });
    expect((await caller.sources.setAgents({ id: created.id, agentIds: [a.agentId, second.id, a.agentId] })).agentIds.sort()).toEqual(
      [a.agentId, second.id].sort(),
    );
    expect((await caller.sources.setAgents({ id: created.id, agentIds: [second.id] })).agentIds).toEqual([second.id]);
    expect(await ctx.db.prisma.agentSource.findMany({ where: { sourceId: created.id }, select: { agentId: true } })).toEqual([
      { agentId: second.id },
    ]);
    expect((await caller.sources.setAgents({ id: created.id, agentIds: [] })).agentIds).toEqual([]);

    await expect(caller.sources.create({ name: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses links to another workspace's agents and hides its sources", async () => {
    const caller = callerFor(ctx, b.scope);
    await expect(caller.sources.setAgents({ id: b.sourceId, agentIds: [b.agentId, a.agentId] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Agent not found",
    });
    expect(await ctx.db.prisma.agentSource.findMany({ where: { sourceId: b.sourceId }, select: { agentId: true } })).toEqual([
      { agentId: b.agentId },
    ]);

    await expect(caller.sources.update({ id: a.sourceId, name: "Taken" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Source not found",
    });
    await expect(caller.sources.setAgents({ id: a.sourceId, agentIds: [] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Source not found",
    });
    expect((await caller.sources.list()).map((source) => source.id)).toEqual([b.sourceId]);
    expect(await ctx.db.prisma.agentSource.count({ where: { sourceId: a.sourceId } })).toBe(1);
  });
});

describe("articles", () => {
  it("creates drafts and published articles", async () => {
    const caller = callerFor(ctx, a.scope);
    const draft = await caller.articles.create({ sourceId: a.sourceId, title: " Refunds ", content: "# Refunds\n\nWithin 30 days." });
    expect(draft).toMatchObject({
      sourceId: a.sourceId,
      sourceName: "alpha source",
      title: "Refunds",
      content: "# Refunds\n\nWithin 30 days.",
      published: false,
      active: true,
      publishedAt: null,
      agentIds: [a.agentId],
    });
    const live = await caller.articles.create({ sourceId: a.sourceId, title: "Shipping", content: "Two days.", published: true });
    expect(live).toMatchObject({ published: true, publishedAt: NOW, language: null });
  });

  it("keeps an article's language, or none (detected from the text); refuses one it does not read", async () => {
    const caller = callerFor(ctx, a.scope);
    const spanish = await caller.articles.create({ sourceId: a.sourceId, title: "Reembolsos", content: "En 30 días.", language: "es" });
    expect(spanish.language).toBe("es");
    expect((await caller.articles.update({ id: spanish.id, language: "pt" })).language).toBe("pt");
    expect((await caller.articles.update({ id: spanish.id, language: null })).language).toBeNull();
    await expect(
      caller.articles.create({ sourceId: a.sourceId, title: "Rimborsi", content: "Entro 30 giorni.", language: "it" as never }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("Choose one of the languages listed") });
    expect(await ctx.db.prisma.article.count({ where: { title: "Rimborsi" } })).toBe(0);
  });

  it("validates title and content lengths", async () => {
    const caller = callerFor(ctx, a.scope);
    await expect(caller.articles.create({ sourceId: a.sourceId, title: "x".repeat(201), content: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.articles.create({ sourceId: a.sourceId, title: "T", content: "x".repeat(100_001) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.articles.create({ sourceId: a.sourceId, title: "T", content: "   " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const longest = await caller.articles.create({ sourceId: a.sourceId, title: "x".repeat(200), content: "y".repeat(100_000) });
    expect(longest.content).toHaveLength(100_000);
  });

  it("edits, moves, publishes, unpublishes, archives and restores", async () => {
    const caller = callerFor(ctx, a.scope);
    const other = await caller.sources.create({ name: "Other" });
    const article = await caller.articles.create({ sourceId: a.sourceId, title: "Old", content: "Old body" });

    const edited = await caller.articles.update({ id: article.id, title: "New", content: "New body", sourceId: other.id });
    expect(edited).toMatchObject({ title: "New", content: "New body", sourceId: other.id, sourceName: "Other" });

    expect(await caller.articles.setPublished({ id: article.id, published: true })).toMatchObject({ published: true, publishedAt: NOW });
    expect(await caller.articles.setPublished({ id: article.id, published: false })).toMatchObject({ published: false, publishedAt: null });
    expect(await caller.articles.setActive({ id: article.id, active: false })).toMatchObject({ active: false });
    expect(await caller.articles.setActive({ id: article.id, active: true })).toMatchObject({ active: true });
    expect(await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: article.id } })).toMatchObject({
      title: "New",
      sourceId: other.id,
      published: false,
      active: true,
    });
  });

  it("lists by source and by search, most recently updated first", async () => {
    const caller = callerFor(ctx, a.scope);
    const source = await caller.sources.create({ name: "Search" });
    const first = await caller.articles.create({ sourceId: source.id, title: "Password reset", content: "Use the link." });
    const second = await caller.articles.create({
      sourceId: source.id,
      title: "Invoices",
      content: "Download your PASSWORD-protected PDF.",
    });
    // Two creations may share a millisecond: make the order unambiguous.
    await ctx.db.prisma.article.update({ where: { id: first.id }, data: { updatedAt: new Date("2026-11-01T00:00:00Z") } });
    await ctx.db.prisma.article.update({ where: { id: second.id }, data: { updatedAt: new Date("2026-11-02T00:00:00Z") } });
    const list = await caller.articles.list({ sourceId: source.id });
    expect(list.map((row) => row.id)).toEqual([second.id, first.id]);
    expect(list[0]).toEqual({
      id: second.id,
      sourceId: source.id,
      sourceName: "Search",
      sourceActive: true,
      title: "Invoices",
      slug: "invoices",
      language: null,
      translationOfId: null,
      published: false,
      active: true,
      updatedAt: expect.any(Date),
      viewCount: 0,
      helpful: 0,
      votes: 0,
    });
    expect((await caller.articles.list({ sourceId: source.id, query: "password" })).map((row) => row.id)).toEqual([second.id, first.id]);
    expect((await caller.articles.list({ query: "invoices" })).map((row) => row.id)).toEqual([second.id]);
    expect((await caller.articles.list()).every((row) => row.sourceId !== b.sourceId)).toBe(true);
    // The team sees what the help centre's readers read (stored by the article-views task).
    await ctx.db.prisma.article.update({ where: { id: first.id }, data: { viewCount: 7 } });
    const counts = new Map((await caller.articles.list({ sourceId: source.id })).map((row) => [row.id, row.viewCount]));
    expect(counts).toEqual(
      new Map([
        [second.id, 0],
        [first.id, 7],
      ]),
    );
    expect((await caller.articles.get({ id: first.id })).viewCount).toBe(7);
  });

  it("treats another workspace's articles and sources as not found", async () => {
    const caller = callerFor(ctx, b.scope);
    await expect(caller.articles.get({ id: a.articleId })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Article not found" });
    await expect(caller.articles.update({ id: a.articleId, title: "Mine" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.articles.setPublished({ id: a.articleId, published: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.articles.setActive({ id: a.articleId, active: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.articles.create({ sourceId: a.sourceId, title: "In", content: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Source not found",
    });
    // Moving one's own article into a foreign source is refused too.
    await expect(caller.articles.update({ id: b.articleId, sourceId: a.sourceId })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Source not found",
    });
    expect((await caller.articles.list({ sourceId: a.sourceId })).length).toBe(0);
    expect(await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: a.articleId } })).toMatchObject({
      title: "alpha article",
      published: true,
      active: true,
    });
    expect(await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: b.articleId } })).toMatchObject({ sourceId: b.sourceId });
  });
});
