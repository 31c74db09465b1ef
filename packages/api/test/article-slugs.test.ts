// Article slugs through the panel's procedures and the help page's lookup: generated from the title,
// de-duplicated per source, validated and editable; the old id address redirects to the slug's,
// and a hidden article's slug is as unknown as a slug that never existed.

import { resolveHelpArticlePage } from "@parley/core/help";
import { slugFromTitle } from "@parley/core/knowledge";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

describe("slugFromTitle", () => {
  it("transliterates, lowercases and hyphenates", () => {
    expect(slugFromTitle("Crème brûlée: how do I reset my password?")).toBe("creme-brulee-how-do-i-reset-my-password");
    expect(slugFromTitle("  Straße & Co  ")).toBe("strasse-and-co");
  });

  it("gives 'article' when nothing usable is left, and at most 100 characters without a trailing hyphen", () => {
    expect(slugFromTitle("!!! ???")).toBe("article");
    const long = slugFromTitle(`${"word ".repeat(40)}end`);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe("articles' slugs in the panel", () => {
  it("generates a slug from the title, with -2 and -3 for repeats in the same source only", async () => {
    const caller = callerFor(ctx, a.scope);
    const make = (sourceId: string) => caller.articles.create({ sourceId, title: "Refund policy", content: "Body" });
    expect((await make(a.sourceId)).slug).toBe("refund-policy");
    expect((await make(a.sourceId)).slug).toBe("refund-policy-2");
    expect((await make(a.sourceId)).slug).toBe("refund-policy-3");
    const other = await caller.sources.create({ name: "Other" });
    expect((await make(other.id)).slug).toBe("refund-policy");
  });

  it("takes a given slug, and refuses a malformed or too long one with the field's message", async () => {
    const caller = callerFor(ctx, a.scope);
    expect((await caller.articles.create({ sourceId: a.sourceId, title: "T", content: "x", slug: "my-own-1" })).slug).toBe("my-own-1");
    const refused: Array<[string, string]> = [
      ["Has Spaces", "Use lowercase letters a-z, digits and hyphens only"],
      ["ünï", "Use lowercase letters a-z, digits and hyphens only"],
      ["x".repeat(121), "Use at most 120 characters"],
    ];
    for (const [slug, message] of refused) {
      await expect(caller.articles.create({ sourceId: a.sourceId, title: "T", content: "x", slug })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining(message),
      });
    }
    expect((await caller.articles.create({ sourceId: a.sourceId, title: "T", content: "x", slug: "x".repeat(120) })).slug).toHaveLength(
      120,
    );
  });

  it("edits a slug; one taken in the same source is a conflict and nothing changes", async () => {
    const caller = callerFor(ctx, a.scope);
    const first = await caller.articles.create({ sourceId: a.sourceId, title: "Shipping times", content: "x" });
    const second = await caller.articles.create({ sourceId: a.sourceId, title: "Returns", content: "x" });
    expect((await caller.articles.update({ id: first.id, slug: "delivery" })).slug).toBe("delivery");
    await expect(caller.articles.update({ id: second.id, slug: "delivery", title: "Changed" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Another article of this source already uses this slug",
    });
    expect(await caller.articles.get({ id: second.id })).toMatchObject({ slug: "returns", title: "Returns" });
  });

  it("moving an article keeps its slug free in the new source", async () => {
    const caller = callerFor(ctx, a.scope);
    const target = await caller.sources.create({ name: "Target" });
    await caller.articles.create({ sourceId: target.id, title: "Moving", content: "x" });
    const moved = await caller.articles.create({ sourceId: a.sourceId, title: "Moving", content: "x" });
    expect(await caller.articles.update({ id: moved.id, sourceId: target.id })).toMatchObject({ sourceId: target.id, slug: "moving-2" });
  });
});

describe("the help page by slug", () => {
  it("shows a visible article by its slug and redirects its id address to it", async () => {
    const caller = callerFor(ctx, a.scope);
    const article = await caller.articles.create({ sourceId: a.sourceId, title: "Opening hours", content: "9 to 5", published: true });
    const page = await resolveHelpArticlePage(ctx.db, a.agentId, "opening-hours");
    expect(page).toEqual({ article: expect.objectContaining({ id: article.id, slug: "opening-hours", title: "Opening hours" }) });
    expect(await resolveHelpArticlePage(ctx.db, a.agentId, article.id)).toEqual({
      redirectTo: `/help/${a.agentId}/articles/opening-hours`,
    });
  });

  it("gives the page the article's language: the one set, else the one its text is written in", async () => {
    const caller = callerFor(ctx, a.scope);
    const content = "Para pedir un reembolso, abre Facturación y elige la factura. Te devolvemos el dinero en cinco días hábiles.";
    await caller.articles.create({ sourceId: a.sourceId, title: "Cómo pedir un reembolso", content, published: true });
    await caller.articles.create({ sourceId: a.sourceId, title: "Reembolso (alemán)", content, published: true, language: "de" });
    const languageOf = async (slug: string) => {
      const page = await resolveHelpArticlePage(ctx.db, a.agentId, slug);
      return "article" in page ? page.article.language : null;
    };
    expect(await languageOf("como-pedir-un-reembolso")).toBe("es");
    expect(await languageOf("reembolso-aleman")).toBe("de");
  });

  it("answers a hidden article's slug and id exactly like unknown ones", async () => {
    const caller = callerFor(ctx, a.scope);
    const draft = await caller.articles.create({ sourceId: a.sourceId, title: "Secret plans", content: "x" });
    const archived = await caller.articles.create({ sourceId: a.sourceId, title: "Old plans", content: "x", published: true });
    await caller.articles.setActive({ id: archived.id, active: false });
    const unknown = await resolveHelpArticlePage(ctx.db, a.agentId, "no-such-article");
    expect(unknown).toEqual({ notFound: true });
    for (const slugOrId of ["secret-plans", draft.id, "old-plans", archived.id]) {
      expect(await resolveHelpArticlePage(ctx.db, a.agentId, slugOrId)).toEqual(unknown);
    }
    // Another workspace's agent does not see it either.
    const visible = await caller.articles.create({ sourceId: a.sourceId, title: "Public", content: "x", published: true });
    expect(await resolveHelpArticlePage(ctx.db, b.agentId, visible.slug)).toEqual(unknown);
    expect(await resolveHelpArticlePage(ctx.db, b.agentId, visible.id)).toEqual(unknown);
  });
});
