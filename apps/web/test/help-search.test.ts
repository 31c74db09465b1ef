// The help centre's search through the JSON route (`GET .../help/articles?q=&sort=`) and the
// search page's content (helpSearchPage): the knowledge agent's analysis finds a natural question's
// article and a typo'd word's, `sort` orders the same matches, a bad `sort` is a 400, and hidden
// articles never appear. Real database, the real handler.

import { helpSearchPage } from "@parley/core/help";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpArticlesRoute } from "./support/routes.ts";

const CACHE_CONTROL = "private, max-age=30";
const AGENT = "search-agent";
const BASE = Date.parse("2026-07-01T00:00:00.000Z");

let ctx: TestContext;
let ipCounter = 0;

function articles(search: string, agentId = AGENT) {
  ipCounter += 1;
  const request = new Request(`http://localhost/api/agent/${agentId}/help/articles${search}`, {
    headers: { "x-parley-client-ip": `10.9.${Math.floor(ipCounter / 250)}.${ipCounter % 250}` },
  });
  return helpArticlesRoute(ctx, request, { agentId });
}

async function listIds(search: string): Promise<string[]> {
  const response = await articles(search);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { articles: Array<{ id: string }> } }).data.articles.map((row) => row.id);
}

// Short contents: each excerpt is the whole plain text, so the bodies are known exactly.
const REFUNDS = {
  id: "s-refunds",
  sourceId: "s-billing",
  title: "Refund policy",
  excerpt: "Changed your mind after cancelling? Ask for a refund within 30 days to get your money back on the card you paid with.",
};
const CANCEL = {
  id: "s-cancel",
  sourceId: "s-billing",
  title: "Cancel your subscription",
  excerpt: "Cancel any time from the billing page. Your plan stays active until the end of the month.",
};
const INVOICES = {
  id: "s-invoices",
  sourceId: "s-billing",
  title: "Downloading invoices",
  excerpt: "Download every invoice as a PDF from the billing page, or have it emailed to your accountant.",
};
const PASSWORD = {
  id: "s-password",
  sourceId: "s-account",
  title: "Resetting your password",
  excerpt: "Forgot your password? Choose Reset password on the sign-in page and follow the emailed link.",
};

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.db.prisma;
  await db.workspace.create({ data: { id: "search-ws", name: "Search" } });
  await db.agent.create({ data: { id: AGENT, workspaceId: "search-ws", name: "Search" } });
  for (const [id, active] of [
    ["s-billing", true],
    ["s-account", true],
    ["s-retired", false],
  ] as const) {
    await db.source.create({ data: { id, workspaceId: "search-ws", name: id, active } });
    await db.agentSource.create({ data: { agentId: AGENT, sourceId: id } });
  }
  // Linked to no agent.
  await db.source.create({ data: { id: "s-unlinked", workspaceId: "search-ws", name: "Unlinked" } });
  const visible = [REFUNDS, CANCEL, INVOICES, PASSWORD].map((row, i) => ({
    id: row.id,
    sourceId: row.sourceId,
    slug: row.id,
    title: row.title,
    content: row.excerpt,
    published: true,
    language: "en",
    // Refunds is the oldest, the password article the newest.
    updatedAt: new Date(BASE + i * 60_000),
  }));
  const hidden = [
    { id: "s-draft", sourceId: "s-billing", published: false, active: true },
    { id: "s-inactive", sourceId: "s-billing", published: true, active: false },
    { id: "s-retired-refund", sourceId: "s-retired", published: true, active: true },
    { id: "s-unlinked-refund", sourceId: "s-unlinked", published: true, active: true },
  ].map((row, i) => ({
    ...row,
    slug: row.id,
    title: "Refund money back after cancelling",
    content: "How to get your money back after cancelling: refunds, reimbursement and cancellation.",
    language: "en",
    updatedAt: new Date(BASE + (10 + i) * 60_000),
  }));
  await db.article.createMany({ data: [...visible, ...hidden] });
});

afterAll(async () => {
  await ctx?.close();
});

const HIDDEN = ["s-draft", "s-inactive", "s-retired-refund", "s-unlinked-refund"];

describe("GET .../help/articles?q= with the knowledge agent's analysis", () => {
  it("finds a natural question's article: best first with sort=relevance, most recently updated first by default", async () => {
    const question = encodeURIComponent("how do I get my money back after cancelling");
    const relevance = await articles(`?q=${question}&sort=relevance`);
    expect(relevance.status).toBe(200);
    expect(relevance.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(await relevance.json()).toEqual({ data: { articles: [REFUNDS, CANCEL] } });

    // Most recent first lists the articles holding every word (the refund policy says "money back"
    // and "cancelling"), not every article sharing one word with the question.
    const recent = await articles(`?q=${question}`);
    expect(recent.status).toBe(200);
    expect(await recent.json()).toEqual({ data: { articles: [REFUNDS] } });
    for (const sort of ["recent", ""]) {
      const explicit = await articles(`?q=${question}&sort=${sort}`);
      expect(explicit.status).toBe(200);
      expect(await explicit.json()).toEqual({ data: { articles: [REFUNDS] } });
    }
    // When no article holds every word, the closest matches, most recently updated first.
    const closest = await articles(`?q=${encodeURIComponent("cancel my refund bitcoin")}`);
    expect(await closest.json()).toEqual({ data: { articles: [CANCEL, REFUNDS] } });
  });

  it("finds a typo'd word's article", async () => {
    expect((await listIds(`?q=${encodeURIComponent("pasword reset")}&sort=relevance`))[0]).toBe("s-password");
    expect((await listIds(`?q=${encodeURIComponent("downlaod invoices")}&sort=relevance`))[0]).toBe("s-invoices");
  });

  it("lists newest first without q, whatever the sort", async () => {
    const newestFirst = ["s-password", "s-invoices", "s-cancel", "s-refunds"];
    expect(await listIds("")).toEqual(newestFirst);
    expect(await listIds("?sort=relevance")).toEqual(newestFirst);
    expect(await listIds("?q=%20&sort=relevance")).toEqual(newestFirst);
  });

  it("keeps the source filter with either order", async () => {
    const question = encodeURIComponent("how do I get my money back after cancelling");
    expect(await listIds(`?q=${question}&source=s-account&sort=relevance`)).toEqual([]);
    expect(await listIds(`?q=${question}&source=s-billing&sort=relevance`)).toEqual(["s-refunds", "s-cancel"]);
    expect(await listIds(`?q=${question}&source=s-retired`)).toEqual([]);
  });

  it("refuses an unknown sort with 400 Invalid request naming the field", async () => {
    for (const sort of ["bogus", "RELEVANCE", "newest", "%20"]) {
      const response = await articles(`?q=refund&sort=${sort}`);
      expect(response.status, sort).toBe(400);
      expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
      expect(await response.text()).toBe('{"error":"Invalid request","details":"sort: must be one of recent, relevance"}');
    }
    const both = await articles(`?q=${"a".repeat(101)}&sort=bogus`);
    expect(await both.json()).toEqual({
      error: "Invalid request",
      details: "q: must be at most 100 characters; sort: must be one of recent, relevance",
    });
  });

  it("never lists an unpublished, inactive, inactive-source or unlinked article", async () => {
    for (const q of ["refund", "how do I get my money back after cancelling", "reimbursement", "cancellation", "refnud"]) {
      for (const sort of ["recent", "relevance"]) {
        const found = await listIds(`?q=${encodeURIComponent(q)}&sort=${sort}`);
        for (const hidden of HIDDEN) expect(found, `${q} ${sort}`).not.toContain(hidden);
      }
    }
  });
});

describe("the search page's content (helpSearchPage)", () => {
  it("lists a natural question's article first", async () => {
    const page = await helpSearchPage(ctx.db, AGENT, "  how do I get my money back after cancelling ");
    expect(page.query).toBe("how do I get my money back after cancelling");
    expect(page.articles.map((article) => article.id)).toEqual(["s-refunds", "s-cancel"]);
    expect(page.suggestion).toBeNull();
  });

  it("offers the corrected query of a typo, with its search address", async () => {
    const page = await helpSearchPage(ctx.db, AGENT, "refnud policy");
    expect(page.articles[0]?.id).toBe("s-refunds");
    expect(page.suggestion).toEqual({ query: "refund policy", href: "/help/search-agent/search?q=refund%20policy" });
    expect(page.closestOnly).toBe(false);
  });

  it("shows the closest matches when no article holds every word, and nothing for a query nothing matches", async () => {
    const closest = await helpSearchPage(ctx.db, AGENT, "refund bitcoin wallet");
    expect(closest.articles[0]?.id).toBe("s-refunds");
    expect(closest.closestOnly).toBe(true);
    const none = await helpSearchPage(ctx.db, AGENT, "zyxwvut qqqq");
    expect(none).toEqual({ query: "zyxwvut qqqq", tooLong: false, articles: [], suggestion: null, closestOnly: false });
  });

  it("searches nothing for a blank or too long query", async () => {
    expect(await helpSearchPage(ctx.db, AGENT, "   ")).toEqual({
      query: "",
      tooLong: false,
      articles: [],
      suggestion: null,
      closestOnly: false,
    });
    expect((await helpSearchPage(ctx.db, AGENT, "a".repeat(101))).tooLong).toBe(true);
  });
});
