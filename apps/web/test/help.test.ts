// The public help-centre JSON routes (spec 4.2 to 4.5) through their handlers, over the
// demo data and extra fixtures in a real database, with the real rate limiter (in process, or
// Redis with REDIS_URL).

import { seed } from "@parley/core/demo";
import { searchHelpArticles } from "@parley/core/knowledge";
import { freezeClockAtWindowStart } from "@parley/testing/clock";
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { helpArticleRoute, helpArticlesRoute, helpCollectionsRoute } from "./support/routes.ts";

const CACHE_CONTROL = "private, max-age=30";
const HIDDEN_DEMO_ARTICLES = ["art-start-draft", "art-start-archived", "art-internal", "art-draft-only", "art-retired"];

let ctx: TestContext;
let ipCounter = 0;

/** A client IP no other request of this file uses, so the rate limit never interferes. */
function freshIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function request(path: string, options: { ip?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`http://localhost${path}`, { headers: { "x-parley-client-ip": options.ip ?? freshIp(), ...options.headers } });
}

function collections(agentId: string, options?: Parameters<typeof request>[1], context: TestContext = ctx) {
  return helpCollectionsRoute(context, request(`/api/agent/${agentId}/help`, options), { agentId });
}

function articles(agentId: string, search = "", options?: Parameters<typeof request>[1]) {
  return helpArticlesRoute(ctx, request(`/api/agent/${agentId}/help/articles${search}`, options), { agentId });
}

function article(agentId: string, itemId: string, options?: Parameters<typeof request>[1]) {
  return helpArticleRoute(ctx, request(`/api/agent/${agentId}/help/articles/${encodeURIComponent(itemId)}`, options), { agentId, itemId });
}

async function listIds(agentId: string, search: string): Promise<string[]> {
  const response = await articles(agentId, search);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { articles: Array<{ id: string }> } };
  return body.data.articles.map((row) => row.id);
}

/** Status, body bytes and headers (without the per-request id and the limiter's live counters). */
async function snapshot(response: Response) {
  const headers = [...response.headers.entries()].filter(([name]) => !["x-request-id", "ratelimit"].includes(name));
  return { status: response.status, body: await response.text(), headers };
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seed(ctx.db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await ctx?.close();
});

describe("GET /api/agent/{agentId}/help", () => {
  it("lists exactly the demo collections with their counts", async () => {
    const response = await collections("demo");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        collections: [
          { id: "src-billing", name: "Billing", count: 2 },
          { id: "src-start", name: "Getting started", count: 3 },
        ],
      },
    });
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(response.headers.get("ratelimit-policy")).toBe('"help";q=30;w=60');
    expect(response.headers.get("ratelimit")).toMatch(/^"help";r=29;t=\d+$/);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("gives an active agent without visible articles an empty list", async () => {
    const response = await collections("demo-disabled");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { collections: [] } });
  });

  it("is the same 404 for an unknown and an inactive agent", async () => {
    const unknown = await snapshot(await collections("no-such-agent"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe('{"error":"Not found"}');
    expect(Object.fromEntries(unknown.headers)).toEqual({
      "content-type": "application/json; charset=utf-8",
      "cache-control": CACHE_CONTROL,
      "ratelimit-policy": '"help";q=30;w=60',
      link: '</docs#errors-not-found>; rel="help"',
    });
    expect(await snapshot(await collections("demo-inactive"))).toEqual(unknown);
  });
});

describe("GET /api/agent/{agentId}/help/articles/{itemId}", () => {
  it("returns the full article with updatedAt as ISO 8601 and the stored Markdown", async () => {
    const response = await article("demo", "art-refunds");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
    const body = (await response.json()) as { data: Record<string, unknown> };
    const stored = await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: "art-refunds" } });
    expect(body).toEqual({
      data: {
        id: "art-refunds",
        sourceId: "src-billing",
        sourceName: "Billing",
        title: "Refund policy and how to request a refund",
        content: stored.content,
        updatedAt: "2026-09-29T13:45:00.000Z",
      },
    });
    expect(Object.keys(body.data)).toEqual(["id", "sourceId", "sourceName", "title", "content", "updatedAt"]);
  });

  it("answers every hidden demo article exactly as an unknown id", async () => {
    const unknown = await snapshot(await article("demo", "art-does-not-exist"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe('{"error":"Not found"}');
    for (const id of HIDDEN_DEMO_ARTICLES) {
      expect(await snapshot(await article("demo", id)), id).toEqual(unknown);
    }
    // A visible article through an inactive agent, an agent without the source, an unknown agent.
    expect(await snapshot(await article("demo-inactive", "art-welcome"))).toEqual(unknown);
    expect(await snapshot(await article("demo-disabled", "art-welcome"))).toEqual(unknown);
    expect(await snapshot(await article("no-such-agent", "art-welcome"))).toEqual(unknown);
  });

  it("hides an article on the very next request after it is unpublished", async () => {
    expect((await article("demo", "art-welcome")).status).toBe(200);
    expect(await listIds("demo", "")).toContain("art-welcome");
    const { updatedAt } = await ctx.db.prisma.article.findUniqueOrThrow({ where: { id: "art-welcome" } });
    await ctx.db.prisma.article.update({ where: { id: "art-welcome" }, data: { published: false } });
    try {
      const hidden = await article("demo", "art-welcome");
      expect(hidden.status).toBe(404);
      expect(await hidden.text()).toBe('{"error":"Not found"}');
      expect(hidden.headers.get("cache-control")).toBe(CACHE_CONTROL);
      expect(await listIds("demo", "")).not.toContain("art-welcome");
      expect(await listIds("demo", "?q=welcome")).toEqual([]);
    } finally {
      await ctx.db.prisma.article.update({ where: { id: "art-welcome" }, data: { published: true, updatedAt } });
    }
  });
});

describe("GET /api/agent/{agentId}/help/articles", () => {
  it("lists the visible demo articles, most recently updated first, as summaries", async () => {
    const response = await articles("demo");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
    const body = (await response.json()) as { data: { articles: Array<Record<string, string>> } };
    expect(body.data.articles.map((row) => row.id)).toEqual([
      "art-invoices",
      "art-api-keys",
      "art-reset-password",
      "art-refunds",
      "art-welcome",
    ]);
    for (const row of body.data.articles) {
      expect(Object.keys(row)).toEqual(["id", "sourceId", "title", "excerpt"]);
      expect(row.excerpt!.length).toBeGreaterThan(100);
      expect(row.excerpt!.length).toBeLessThanOrEqual(202);
    }
    expect(body.data.articles[0]).toMatchObject({
      id: "art-invoices",
      sourceId: "src-billing",
      title: "Finding, downloading and correcting invoices",
    });
    expect(body.data.articles[0]!.excerpt).toMatch(/^Every payment to Acme Cloud comes with an invoice\. /);
  });

  it("filters by source; a hidden or unknown source lists nothing", async () => {
    expect(await listIds("demo", "?source=src-billing")).toEqual(["art-invoices", "art-refunds"]);
    // Most recently updated first by default (spec 4.3); best match first with sort=relevance:
    // "refund" is in art-refunds' title, only in art-invoices' content.
    expect(await listIds("demo", "?source=src-billing&q=refund")).toEqual(["art-invoices", "art-refunds"]);
    expect(await listIds("demo", "?source=src-billing&q=refund&sort=relevance")).toEqual(["art-refunds", "art-invoices"]);
    expect(await listIds("demo", "?source=src-start&q=refund")).toEqual([]);
    for (const source of ["src-internal", "src-drafts", "src-retired", "nope"])
      expect(await listIds("demo", `?source=${source}`)).toEqual([]);
    expect(await listIds("demo", "?source=")).toHaveLength(5);
  });

  it("searches by title word, content-only word, substring, upper case; trimmed; blank is no filter", async () => {
    expect(await listIds("demo", "?q=password")).toEqual(["art-reset-password"]);
    expect(await listIds("demo", "?q=spam")).toEqual(["art-reset-password"]);
    expect(await listIds("demo", "?q=ccountan")).toEqual(["art-invoices"]);
    expect(await listIds("demo", "?q=SPAM")).toEqual(["art-reset-password"]);
    expect(await listIds("demo", "?q=%20%20spam%20")).toEqual(["art-reset-password"]);
    expect(await listIds("demo", "?q=%20%20")).toHaveLength(5);
    // In hidden articles only (draft, internal, inactive source). "sso" finds the visible article
    // that mentions single sign-on (a synonym), never the hidden SSO article.
    expect(await listIds("demo", "?q=sso")).toEqual(["art-reset-password"]);
    expect(await listIds("demo", "?q=runbook")).toEqual([]);
    expect(await listIds("demo", "?q=legacy")).toEqual([]);
  });

  it("gives an excerpt around the match", async () => {
    const response = await articles("demo", "?q=accountant");
    const body = (await response.json()) as { data: { articles: Array<{ id: string; excerpt: string }> } };
    // "accountant" also matches "account" (stemmed) elsewhere; the excerpt shows the exact match.
    const invoices = body.data.articles.find((row) => row.id === "art-invoices")!;
    expect(invoices.excerpt).toMatch(/^….*Invite your accountant.*…$/);
    expect(invoices.excerpt).not.toMatch(/\*\*/);
  });

  it("is accent-insensitive both ways", async () => {
    const workspace = await ctx.db.prisma.workspace.create({ data: { name: "Accents" } });
    const agent = await ctx.db.prisma.agent.create({ data: { workspaceId: workspace.id, name: "Café agent" } });
    const source = await ctx.db.prisma.source.create({ data: { workspaceId: workspace.id, name: "Menu" } });
    await ctx.db.prisma.agentSource.create({ data: { agentId: agent.id, sourceId: source.id } });
    const cafe = await ctx.db.prisma.article.create({
      data: { sourceId: source.id, title: "Opening hours of the café", content: "The **café** opens at 8.", published: true },
    });
    const plain = await ctx.db.prisma.article.create({
      data: { sourceId: source.id, title: "Resume", content: "Upload your resume.", published: true },
    });
    for (const q of ["cafe", "CAFÉ", "Cafe", "afé"]) expect(await listIds(agent.id, `?q=${encodeURIComponent(q)}`), q).toEqual([cafe.id]);
    expect(await listIds(agent.id, `?q=${encodeURIComponent("résumé")}`)).toEqual([plain.id]);
  });

  it("returns at most 50, most recently updated first, with 60 articles", async () => {
    const workspace = await ctx.db.prisma.workspace.create({ data: { name: "Sixty" } });
    const agent = await ctx.db.prisma.agent.create({ data: { workspaceId: workspace.id, name: "Sixty" } });
    const sources = await Promise.all(
      ["One", "Two", "Three"].map((name) => ctx.db.prisma.source.create({ data: { workspaceId: workspace.id, name } })),
    );
    for (const source of sources) await ctx.db.prisma.agentSource.create({ data: { agentId: agent.id, sourceId: source.id } });
    const base = Date.parse("2026-05-01T00:00:00.000Z");
    const data = Array.from({ length: 60 }, (_, i) => ({
      id: `sixty-${String(i).padStart(2, "0")}`,
      sourceId: sources[i % 3]!.id,
      title: `Guide ${i}`,
      content: `Gadget manual ${i}.`,
      published: true,
      updatedAt: new Date(base + ((i * 37) % 60) * 60_000),
    }));
    await ctx.db.prisma.article.createMany({ data });
    const expected = [...data]
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
      .slice(0, 50)
      .map((row) => row.id);
    expect(await listIds(agent.id, "")).toEqual(expected);
    expect(await listIds(agent.id, "?q=gadget")).toEqual(expected);
    expect(await listIds(agent.id, "?q=adge")).toEqual(expected);
  });

  it("with sort=relevance, ranks a search as the search page does (a title match above a newer body-only match); else newest first", async () => {
    const workspace = await ctx.db.prisma.workspace.create({ data: { name: "Relevance" } });
    const agent = await ctx.db.prisma.agent.create({ data: { workspaceId: workspace.id, name: "Relevance" } });
    const source = await ctx.db.prisma.source.create({ data: { workspaceId: workspace.id, name: "Reports" } });
    await ctx.db.prisma.agentSource.create({ data: { agentId: agent.id, sourceId: source.id } });
    const base = Date.parse("2026-06-01T00:00:00.000Z");
    await ctx.db.prisma.article.createMany({
      data: [
        { id: "rel-title", title: "Exporting timesheets", content: "Choose a format and a date range.", updatedAt: new Date(base) },
        // The newest: by recency alone it would come first.
        {
          id: "rel-body",
          title: "Reports overview",
          content: "Reports sum up hours per project, also when exporting them.",
          updatedAt: new Date(base + 60_000),
        },
      ].map((row) => ({ ...row, sourceId: source.id, published: true })),
    });
    expect(await listIds(agent.id, "?q=exporting&sort=relevance")).toEqual(["rel-title", "rel-body"]);
    expect(await listIds(agent.id, `?source=${source.id}&q=exporting&sort=relevance`)).toEqual(["rel-title", "rel-body"]);
    expect(await listIds(agent.id, "?q=exporting")).toEqual(["rel-body", "rel-title"]);
    expect(await listIds(agent.id, "?q=exporting&sort=recent")).toEqual(["rel-body", "rel-title"]);
    // The search page's read (apps/web/src/help/data.ts) gives the relevance order.
    const page = await searchHelpArticles(ctx.db, agent.id, "exporting", { limit: 50 });
    expect(page.map((hit) => hit.id)).toEqual(["rel-title", "rel-body"]);
    expect(await listIds(agent.id, "")).toEqual(["rel-body", "rel-title"]);
    expect(await listIds(agent.id, "?q=%20")).toEqual(["rel-body", "rel-title"]);
  });

  it("refuses a q over 100 characters with 400 and accepts 100", async () => {
    const tooLong = await articles("demo", `?q=${"a".repeat(101)}`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({ error: "Invalid request", details: "q: must be at most 100 characters" });
    expect(tooLong.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(tooLong.headers.get("ratelimit-policy")).toBe('"help";q=30;w=60');
    const longest = await articles("demo", `?q=${"a".repeat(100)}`);
    expect(longest.status).toBe(200);
    expect(await longest.json()).toEqual({ data: { articles: [] } });
    // Characters, not UTF-16 units: 100 emoji are 100 characters.
    expect((await articles("demo", `?q=${encodeURIComponent("😀".repeat(100))}`)).status).toBe(200);
  });

  it("is the same 404 for unknown and inactive agents", async () => {
    const unknown = await snapshot(await articles("no-such-agent"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe('{"error":"Not found"}');
    expect(await snapshot(await articles("demo-inactive"))).toEqual(unknown);
    expect(await snapshot(await articles("demo-inactive", "?q=welcome"))).toEqual(unknown);
  });
});

describe("rate limit: 30 requests a minute per client IP and agent", () => {
  beforeEach(() => freezeClockAtWindowStart(60));
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refuses the 31st request from one IP with 429, and not another IP's", async () => {
    const ip = freshIp();
    for (let i = 1; i <= 30; i++) {
      const response = await collections("demo", { ip });
      expect(response.status, `request ${i}`).toBe(200);
      expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"help";r=${30 - i};t=\\d+$`));
    }
    const refused = await collections("demo", { ip });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Rate limit exceeded" });
    // A refusal must not be cached: a retry after Retry-After would get the cached 429.
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toBe('"help";q=30;w=60');
    expect(refused.headers.get("ratelimit")).toMatch(/^"help";r=0;t=\d+$/);
    // Every help route shares the budget; the same IP for another agent has its own.
    expect((await article("demo", "art-refunds", { ip })).status).toBe(429);
    expect((await collections("demo-disabled", { ip })).status).toBe(200);
    expect((await collections("demo")).status).toBe(200);
  });

  it("behind a trusted proxy, keys on the address the proxy saw, not on what the client wrote", async () => {
    const proxied = await createTestContext({ trustProxy: { hops: 1 } });
    const direct = await createTestContext({ trustProxy: false });
    try {
      for (const context of [proxied, direct]) {
        await context.db.prisma.workspace.create({ data: { id: "ws", name: "Proxy" } });
        await context.db.prisma.agent.create({ data: { id: "demo", workspaceId: "ws", name: "Proxy agent" } });
      }
      const proxyIp = "192.0.2.1";
      // The proxy appends the address it saw (198.51.100.7) to whatever the client sent.
      const forwarded = (spoofed: string, client = "198.51.100.7") => ({
        ip: proxyIp,
        headers: { "x-forwarded-for": `${spoofed}, ${client}` },
      });
      for (let i = 0; i < 30; i++) expect((await collections("demo", forwarded(`203.0.113.${i}`), proxied)).status).toBe(200);
      // A new made-up address on the left each time does not buy a new budget.
      expect((await collections("demo", forwarded("203.0.113.99"), proxied)).status).toBe(429);
      // Another client behind the same proxy has its own.
      expect((await collections("demo", forwarded("203.0.113.99", "198.51.100.8"), proxied)).status).toBe(200);

      // Not behind a trusted proxy: the header is the client's own words; the socket decides.
      for (let i = 0; i < 30; i++)
        expect((await collections("demo", forwarded(`203.0.113.${i}`, `198.51.100.${i}`), direct)).status).toBe(200);
      expect((await collections("demo", forwarded("203.0.113.99", "198.51.100.99"), direct)).status).toBe(429);
    } finally {
      await proxied.close();
      await direct.close();
    }
  });
});
