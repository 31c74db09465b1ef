// Translations through the panel's procedures: an article links the original it translates (same
// workspace, not itself, originals only), the editor's choices are the workspace's originals, a
// refused link changes nothing, and a link is audited like any edit. Then what the help centre
// makes of it: each visible language version of an article, never a hidden one, and the lists'
// language filter.
import { AppError } from "@parley/core";
import { helpLanguageFilter, listCollections, listHelpLanguages, listVisibleTranslations } from "@parley/core/help";
import { detectMissingLanguages, KNOWLEDGE_ERRORS, searchHelpArticles } from "@parley/core/knowledge";
import type { TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createWorkspace, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  ({ ctx, a, b } = await setup());
});

afterAll(async () => {
  await ctx?.close();
});

const owner = () => callerFor(ctx, a.scope);

async function article(title: string, extra: { language?: "en" | "es" | "fr" | "de" | "pt"; translationOfId?: string } = {}) {
  return owner().articles.create({ sourceId: a.sourceId, title, content: `${title}: the body.`, published: true, ...extra });
}

describe("linking a translation in the panel", () => {
  it("links an article to its original, on creation and on edit, and shows the group both ways", async () => {
    const original = await article("Refund policy", { language: "en" });
    const french = await article("Politique de remboursement", { language: "fr", translationOfId: original.id });
    expect(french).toMatchObject({
      translationOfId: original.id,
      translationOf: { id: original.id, title: "Refund policy", language: "en" },
    });
    const spanish = await article("Política de reembolso", { language: "es" });
    expect(await owner().articles.update({ id: spanish.id, translationOfId: original.id })).toMatchObject({ translationOfId: original.id });
    expect((await owner().articles.get({ id: original.id })).translations).toEqual([
      { id: french.id, title: "Politique de remboursement", language: "fr" },
      { id: spanish.id, title: "Política de reembolso", language: "es" },
    ]);
    expect((await owner().articles.list()).find((row) => row.id === spanish.id)).toMatchObject({ translationOfId: original.id });
    // Unlinking makes it an original again.
    expect(await owner().articles.update({ id: spanish.id, translationOfId: null })).toMatchObject({
      translationOfId: null,
      translationOf: null,
    });
  });

  it("refuses itself, another workspace's article, an unknown one, a translation and an original with translations; nothing changes", async () => {
    const original = await article("Shipping", { language: "en" });
    const translation = await article("Envío", { language: "es", translationOfId: original.id });
    const loose = await article("Versand", { language: "de" });
    const refusals: Array<[Parameters<ReturnType<typeof owner>["articles"]["update"]>[0], string, string]> = [
      [{ id: loose.id, translationOfId: loose.id }, "BAD_REQUEST", "An article cannot be a translation of itself"],
      [{ id: loose.id, translationOfId: b.articleId }, "NOT_FOUND", "The original article was not found in this workspace"],
      [{ id: loose.id, translationOfId: "no-such-article" }, "NOT_FOUND", "The original article was not found in this workspace"],
      [
        { id: loose.id, translationOfId: translation.id },
        "CONFLICT",
        "That article is itself a translation: choose the original it translates",
      ],
      [
        { id: original.id, translationOfId: loose.id },
        "CONFLICT",
        "This article is the original of other translations, so it cannot be a translation itself",
      ],
    ];
    for (const [input, code, message] of refusals) {
      await expect(owner().articles.update({ ...input, title: "Changed" }), message).rejects.toMatchObject({ code, message });
    }
    expect(await owner().articles.get({ id: loose.id })).toMatchObject({ title: "Versand", translationOfId: null });
    expect(await owner().articles.get({ id: original.id })).toMatchObject({ title: "Shipping", translationOfId: null });
    // Creating one as a translation of a translation is refused the same way.
    await expect(article("Expédition", { translationOfId: translation.id })).rejects.toMatchObject({ code: "CONFLICT" });
    // Another workspace cannot link to (or reach) this one's articles.
    await expect(callerFor(ctx, b.scope).articles.update({ id: b.articleId, translationOfId: original.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "The original article was not found in this workspace",
    });
    await expect(callerFor(ctx, b.scope).articles.update({ id: loose.id, translationOfId: b.articleId })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Article not found",
    });
  });

  it("lets no two saves at once build a chain", async () => {
    const first = await article("Chain one", { language: "en" });
    const second = await article("Chain two", { language: "fr" });
    const third = await article("Chain three", { language: "es" });
    // first → second and second → third together: one of them must be refused.
    const results = await Promise.allSettled([
      owner().articles.update({ id: first.id, translationOfId: second.id }),
      owner().articles.update({ id: second.id, translationOfId: third.id }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const links = await ctx.db.prisma.article.findMany({
      where: { id: { in: [first.id, second.id, third.id] }, translationOfId: { not: null } },
      select: { translationOfId: true },
    });
    for (const link of links) {
      const original = await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: link.translationOfId ?? "" } });
      expect(original.translationOfId).toBeNull();
    }
  });

  it("answers the REST error body of the spec for each refusal", () => {
    expect(new AppError(KNOWLEDGE_ERRORS.TRANSLATION_OF_ITSELF).toBody()).toEqual({
      error: "An article cannot be a translation of itself",
    });
    expect(new AppError(KNOWLEDGE_ERRORS.TRANSLATION_OF_TRANSLATION).status).toBe(409);
    expect(new AppError(KNOWLEDGE_ERRORS.TRANSLATION_HAS_TRANSLATIONS).status).toBe(409);
    expect(new AppError(KNOWLEDGE_ERRORS.TRANSLATION_ORIGINAL_NOT_FOUND).status).toBe(404);
  });

  it("offers the workspace's originals as choices, never the article itself or a translation", async () => {
    const original = await article("Opening hours", { language: "en" });
    const translation = await article("Horaires", { language: "fr", translationOfId: original.id });
    const choices = await owner().articles.translationOriginals({ articleId: original.id });
    const ids = choices.map((choice) => choice.id);
    expect(ids).not.toContain(original.id);
    expect(ids).not.toContain(translation.id);
    expect(ids).not.toContain(b.articleId);
    expect(ids).toContain(a.articleId);
    expect(choices.find((choice) => choice.id === a.articleId)).toEqual({
      id: a.articleId,
      title: "alpha article",
      language: null,
      sourceName: "alpha source",
    });
    expect((await owner().articles.translationOriginals({})).map((choice) => choice.id)).toContain(original.id);
    await expect(callerFor(ctx, null).articles.translationOriginals({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("records the link in the audit log like any edit", async () => {
    const original = await article("Passwords", { language: "en" });
    const translation = await article("Contraseñas", { language: "es" });
    await owner().articles.update({ id: translation.id, translationOfId: original.id });
    const event = await ctx.db.prisma.auditEvent.findFirst({
      where: { targetId: translation.id, action: "article.updated" },
      orderBy: { createdAt: "desc" },
    });
    expect(event?.detail).toEqual({ fields: ["translationOfId"] });
  });

  it("leaves the translations as originals when their original is deleted", async () => {
    const original = await article("Old guide", { language: "en" });
    const translation = await article("Guide ancien", { language: "fr", translationOfId: original.id });
    await owner().articles.delete({ id: original.id });
    expect(await owner().articles.get({ id: translation.id })).toMatchObject({ translationOfId: null, translationOf: null });
  });
});

describe("the help centre's language versions", () => {
  it("links each visible language of the group from every visible member, never a hidden one", async () => {
    const caller = owner();
    const original = await article("Cancel a subscription", { language: "en" });
    const french = await article("Résilier un abonnement", { language: "fr", translationOfId: original.id });
    const draft = await caller.articles.create({
      sourceId: a.sourceId,
      title: "Cancelar una suscripción",
      content: "x",
      language: "es",
      translationOfId: original.id,
    });
    const archived = await article("Ein Abonnement kündigen", { language: "de", translationOfId: original.id });
    await caller.articles.setActive({ id: archived.id, active: false });
    // In a source the agent does not show.
    const unlinked = await caller.sources.create({ name: "Not on the help centre" });
    await caller.articles.create({
      sourceId: unlinked.id,
      title: "Cancelar uma assinatura",
      content: "x",
      language: "pt",
      published: true,
      translationOfId: original.id,
    });

    const expected = [
      { language: "en", languageName: "English", title: "Cancel a subscription", slug: "cancel-a-subscription", current: true },
      { language: "fr", languageName: "Français", title: "Résilier un abonnement", slug: "resilier-un-abonnement", current: false },
    ];
    expect(await listVisibleTranslations(ctx.db, a.agentId, original.id)).toEqual(expected);
    expect(await listVisibleTranslations(ctx.db, a.agentId, french.id)).toEqual([
      { ...expected[1], current: true },
      { ...expected[0], current: false },
    ]);
    // Another agent's help centre does not show these sources at all.
    expect(await listVisibleTranslations(ctx.db, b.agentId, original.id)).toEqual([]);

    // The French one unpublished: the English page has no other language left to link.
    await caller.articles.setPublished({ id: french.id, published: false });
    expect(await listVisibleTranslations(ctx.db, a.agentId, original.id)).toEqual([]);
    // The Spanish draft published: linked from the original, and the hidden original is never named from it.
    await caller.articles.setPublished({ id: draft.id, published: true });
    await caller.articles.setPublished({ id: original.id, published: false });
    expect(await listVisibleTranslations(ctx.db, a.agentId, draft.id)).toEqual([]);
    await caller.articles.setPublished({ id: french.id, published: true });
    expect((await listVisibleTranslations(ctx.db, a.agentId, draft.id)).map((version) => version.slug)).toEqual([
      "cancelar-una-suscripcion",
      "resilier-un-abonnement",
    ]);
  });

  it("names a language once, keeping the page's own article for its language", async () => {
    const original = await article("Invoices", { language: "en" });
    const first = await article("Factures", { language: "fr", translationOfId: original.id });
    await article("Factures (copie)", { language: "fr", translationOfId: original.id });
    expect((await listVisibleTranslations(ctx.db, a.agentId, original.id)).map((version) => version.slug)).toEqual([
      "invoices",
      first.slug,
    ]);
  });
});

describe("the help lists' language filter", () => {
  it("offers the set languages of visible articles, applies a known one and ignores anything else", async () => {
    const ws = await ctx.db.prisma.workspace.create({ data: { name: "Filter" } });
    const agent = await ctx.db.prisma.agent.create({ data: { workspaceId: ws.id, name: "Filter agent" } });
    const source = await ctx.db.prisma.source.create({ data: { workspaceId: ws.id, name: "Guides" } });
    const other = await ctx.db.prisma.source.create({ data: { workspaceId: ws.id, name: "Billing" } });
    await ctx.db.prisma.agentSource.createMany({
      data: [
        { agentId: agent.id, sourceId: source.id },
        { agentId: agent.id, sourceId: other.id },
      ],
    });
    const make = (sourceId: string, title: string, language: string | null, published = true) =>
      ctx.db.prisma.article.create({ data: { sourceId, title, slug: title.toLowerCase(), content: "x", language, published } });
    await make(source.id, "Hello", "en");
    await make(source.id, "Bonjour", "fr");
    await make(source.id, "Detected", null);
    await make(other.id, "Hola", "es", false); // a draft: its language is not offered
    await make(other.id, "Salut", "fr");

    expect(await listHelpLanguages(ctx.db, agent.id)).toEqual(["en", "fr"]);
    expect(await listHelpLanguages(ctx.db, agent.id, other.id)).toEqual(["fr"]);
    expect(await listHelpLanguages(ctx.db, a.agentId, source.id)).toEqual([]);

    const languages = await listHelpLanguages(ctx.db, agent.id);
    const names = [
      { language: "en", languageName: "English" },
      { language: "fr", languageName: "Français" },
    ];
    expect(helpLanguageFilter(languages, "fr")).toEqual({ languages: names, language: "fr" });
    for (const ignored of [undefined, "", "xx", "es", "FR", ["fr", "en"], "fr'--"]) {
      expect(helpLanguageFilter(languages, ignored)).toEqual({ languages: names, language: null });
    }
    // One language: no filter, unless that language is asked for (the way back to all articles).
    expect(helpLanguageFilter(["fr"], undefined)).toEqual({ languages: [], language: null });
    expect(helpLanguageFilter(["fr"], "en")).toEqual({ languages: [], language: null });
    expect(helpLanguageFilter(["fr"], "fr")).toEqual({ languages: [names[1]], language: "fr" });
    expect(helpLanguageFilter([], "fr")).toEqual({ languages: [], language: null });

    const french = await searchHelpArticles(ctx.db, agent.id, "", { limit: 10, language: "fr" });
    expect(french.map((hit) => hit.title).sort()).toEqual(["Bonjour", "Salut"]);
    expect(french.every((hit) => hit.language === "fr")).toBe(true);
    const inGuides = await searchHelpArticles(ctx.db, agent.id, "", { limit: 10, language: "fr", sourceId: source.id });
    expect(inGuides.map((hit) => hit.title)).toEqual(["Bonjour"]);
    expect(await listCollections(ctx.db, agent.id, "en")).toEqual([{ id: source.id, name: "Guides", count: 1 }]);
    expect(await listCollections(ctx.db, agent.id, "fr")).toEqual([
      { id: other.id, name: "Billing", count: 1 },
      { id: source.id, name: "Guides", count: 1 },
    ]);
  });

  it("counts an article left to detection in the language its text is in, detected when saved or by the worker", async () => {
    const detection = await createWorkspace(ctx, "detection");
    const agent = { id: detection.agentId };
    const source = { id: detection.sourceId };
    // The fixture's own article, written without core, is the worker's first.
    await ctx.db.prisma.article.delete({ where: { id: detection.articleId } });
    const caller = callerFor(ctx, detection.scope);
    const storedLanguage = async (id: string) =>
      (await ctx.db.prisma.article.findUniqueOrThrow({ where: { id }, select: { detectedLanguage: true } })).detectedLanguage;

    const saved = await caller.articles.create({
      sourceId: source.id,
      title: "Cómo cambiar la contraseña",
      content: "Abre la configuración de tu cuenta, elige la seguridad y escribe una contraseña nueva dos veces.",
      published: true,
    });
    expect(saved.language).toBeNull();
    expect(await storedLanguage(saved.id)).toBe("es");
    expect(await listHelpLanguages(ctx.db, agent.id)).toEqual(["es"]);
    // Rewritten in French: detected again with the save.
    await caller.articles.update({
      id: saved.id,
      title: "Changer son mot de passe",
      content: "Ouvrez les réglages de votre compte, choisissez la sécurité et saisissez deux fois un nouveau mot de passe.",
    });
    expect(await storedLanguage(saved.id)).toBe("fr");

    // Written without core (the demo seed, a bulk load): the worker's pass detects it, once.
    const loaded = await ctx.db.prisma.article.create({
      data: {
        sourceId: source.id,
        title: "Reset your password",
        slug: "reset-your-password",
        content: "Open your account settings, choose security and type a new password twice.",
        published: true,
      },
    });
    expect(await storedLanguage(loaded.id)).toBeNull();
    expect(await listHelpLanguages(ctx.db, agent.id)).toEqual(["fr"]);
    expect(await detectMissingLanguages(ctx.db, 1_000)).toBeGreaterThan(0);
    expect(await storedLanguage(loaded.id)).toBe("en");
    expect(await listHelpLanguages(ctx.db, agent.id)).toEqual(["en", "fr"]);
    expect(await detectMissingLanguages(ctx.db)).toBe(0);
    const english = await searchHelpArticles(ctx.db, agent.id, "", { limit: 10, language: "en" });
    expect(english.map((hit) => [hit.title, hit.language])).toEqual([["Reset your password", "en"]]);
  });
});
