// Help-centre article views on a real database: a read of a visible article counts in memory and
// the flush stores each batch (total and today's bucket); one visitor counts once per article in
// 30 minutes, crawlers and hidden articles never, lists never; the popular list follows the views;
// a flush that fails loses that batch only, logs no address, and help reads go on answering.
import { createTestContext, type TestContext } from "@parley/testing/context";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { helpArticle, helpArticles } from "../src/help/api.ts";
import { ARTICLE_VIEW_REPEAT_MINUTES, POPULAR_VIEWS_DAYS } from "../src/help/limits.ts";
import { listPopularArticles } from "../src/help/popular.ts";
import { ArticleViewCounter, articleViewsTask, isCrawler } from "../src/help/views.ts";
import { configureLogging } from "../src/platform/logger.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
let clock = new Date("2026-11-28T09:00:00.000Z");
let ctx: TestContext;
let counter: ArticleViewCounter;

beforeAll(async () => {
  ctx = await createTestContext({ now: () => clock });
  await seed(ctx.db, { adminEmail: "a@b.c", adminPassword: "test-password-1" });
});

afterAll(async () => {
  await ctx?.close();
});

beforeEach(async () => {
  counter = new ArticleViewCounter({ db: ctx.db, now: () => clock });
  ctx.articleViews = counter;
  await ctx.db.prisma.articleViewDay.deleteMany();
  await ctx.db.prisma.article.updateMany({ data: { viewCount: 0 } });
});

function read(articleId: string, clientIp = "203.0.113.9", userAgent: string | null = BROWSER) {
  return helpArticle(ctx, { agentId: "demo", itemId: articleId, clientIp, userAgent });
}

async function stored(): Promise<Record<string, { total: number; days: Record<string, number> }>> {
  const articles = await ctx.db.prisma.article.findMany({ where: { viewCount: { gt: 0 } }, select: { id: true, viewCount: true } });
  const days = await ctx.db.prisma.articleViewDay.findMany();
  const out: Record<string, { total: number; days: Record<string, number> }> = {};
  for (const article of articles) out[article.id] = { total: article.viewCount, days: {} };
  for (const day of days) {
    out[day.articleId] ??= { total: 0, days: {} };
    out[day.articleId]!.days[day.day.toISOString().slice(0, 10)] = day.views;
  }
  return out;
}

describe("article views", () => {
  it("are counted in memory on a read and stored by the flush, one batch at a time", async () => {
    expect((await read("art-welcome", "203.0.113.1")).status).toBe(200);
    await read("art-welcome", "203.0.113.2");
    await read("art-welcome", "2001:db8::7");
    await read("art-refunds", "203.0.113.1");
    // Nothing is written on the read itself.
    expect(await stored()).toEqual({});
    expect(counter.pendingViews).toBe(4);

    await counter.flush();
    expect(counter.pendingViews).toBe(0);
    expect(await stored()).toEqual({
      "art-welcome": { total: 3, days: { "2026-11-28": 3 } },
      "art-refunds": { total: 1, days: { "2026-11-28": 1 } },
    });
    // An empty flush adds nothing; the next batch adds to the totals, and a new day has its own bucket.
    await counter.flush();
    clock = new Date("2026-11-29T10:00:00.000Z");
    await read("art-welcome", "203.0.113.3");
    await counter.flush();
    expect(await stored()).toEqual({
      "art-welcome": { total: 4, days: { "2026-11-28": 3, "2026-11-29": 1 } },
      "art-refunds": { total: 1, days: { "2026-11-28": 1 } },
    });
    // No address is stored: the day bucket has the article, the day and the count only.
    expect(Object.keys((await ctx.db.prisma.articleViewDay.findFirstOrThrow()) as object).sort()).toEqual(["articleId", "day", "views"]);
  });

  it("count one visitor once per article in the repeat window", async () => {
    for (let reload = 0; reload < 5; reload += 1) await read("art-welcome", "203.0.113.4");
    await read("art-refunds", "203.0.113.4");
    clock = new Date(clock.getTime() + (ARTICLE_VIEW_REPEAT_MINUTES - 1) * 60_000);
    await read("art-welcome", "203.0.113.4");
    await counter.flush();
    expect(await stored()).toMatchObject({ "art-welcome": { total: 1 }, "art-refunds": { total: 1 } });
    clock = new Date(clock.getTime() + 2 * 60_000);
    await read("art-welcome", "203.0.113.4");
    await counter.flush();
    expect(await stored()).toMatchObject({ "art-welcome": { total: 2 }, "art-refunds": { total: 1 } });
  });

  it("are not counted for crawlers, scripts or an empty User-Agent", async () => {
    const crawlers = [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "facebookexternalhit/1.1",
      "curl/8.5.0",
      "python-requests/2.32.3",
      "Playwright/1.57.0 (x64; debian 12) node/20.20",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "",
      null,
    ];
    for (const [index, userAgent] of crawlers.entries()) {
      expect((await read("art-welcome", `198.51.100.${index + 1}`, userAgent)).status).toBe(200);
    }
    expect(isCrawler(BROWSER)).toBe(false);
    expect(
      isCrawler(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toBe(false);
    await counter.flush();
    expect(await stored()).toEqual({});
  });

  it("are not counted for hidden, draft, archived or unknown articles, nor for lists", async () => {
    for (const hidden of ["art-draft-only", "art-start-draft", "art-start-archived", "art-internal", "no-such-article"]) {
      expect((await read(hidden)).status).toBe(404);
    }
    const list = await helpArticles(ctx, { agentId: "demo", clientIp: "203.0.113.9", query: new URLSearchParams() });
    expect(list.status).toBe(200);
    // An inactive agent's help centre shows nothing, so counts nothing.
    expect(
      (await helpArticle(ctx, { agentId: "demo-inactive", itemId: "art-welcome", clientIp: "203.0.113.9", userAgent: BROWSER })).status,
    ).toBe(404);
    expect(counter.pendingViews).toBe(0);
    await counter.flush();
    expect(await stored()).toEqual({});
  });

  it("order the popular list: views of the last 30 days, then all views, then helpful votes, then newest", async () => {
    async function views(articleId: string, visitors: number) {
      for (let visitor = 0; visitor < visitors; visitor += 1) await read(articleId, `192.0.2.${visitor + 1}`);
    }
    // Long ago: many views of the refunds article (its total only, once its days are past the window).
    const today = clock;
    clock = new Date(today.getTime() - (POPULAR_VIEWS_DAYS + 5) * 86_400_000);
    await views("art-refunds", 9);
    await counter.flush();
    clock = today;
    await views("art-invoices", 3);
    await views("art-api-keys", 2);
    // A draft read before it was unpublished is never offered (its read now is a 404 and counts nothing).
    await ctx.db.prisma.article.update({ where: { id: "art-draft-only" }, data: { viewCount: 50 } });
    await counter.flush();
    await ctx.db.prisma.articleFeedback.create({ data: { articleId: "art-welcome", helpful: true, voterHash: "v1" } });

    const popular = (await listPopularArticles(ctx.db, "demo", 5, clock)).map((article) => article.id);
    expect(popular).toEqual(["art-invoices", "art-api-keys", "art-refunds", "art-welcome", "art-reset-password"]);
    // Days older than the window are deleted by the flush that first runs on a later day.
    expect((await ctx.db.prisma.articleViewDay.findMany({ where: { articleId: "art-refunds" } })).length).toBe(0);
  });

  it("lose only the batch whose flush failed, log no address, and never fail a read", async () => {
    configureLogging({ level: "error" });
    const errors: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      errors.push(String(line));
      return true;
    });
    try {
      await read("art-welcome", "203.0.113.77");
      await ctx.db.query(`ALTER TABLE "ArticleViewDay" RENAME TO "ArticleViewDayAway"`);
      try {
        await expect(counter.flush()).rejects.toThrow();
        // Reads go on while the database refuses views.
        expect((await read("art-refunds", "203.0.113.77")).status).toBe(200);
      } finally {
        await ctx.db.query(`ALTER TABLE "ArticleViewDayAway" RENAME TO "ArticleViewDay"`);
      }
      await counter.flush();
    } finally {
      stderr.mockRestore();
      configureLogging({ level: "silent" });
    }
    // The failed batch (the welcome view) is gone, whole; the next one is stored.
    expect(await stored()).toEqual({ "art-refunds": { total: 1, days: { [clock.toISOString().slice(0, 10)]: 1 } } });
    const line = errors.find((entry) => entry.includes("article views not stored"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: "error", articles: 1, views: 1 });
    expect(line).not.toContain("203.0.113.77");
  });

  it("are stored by the scheduler's task, and once more when it stops", async () => {
    const scheduler = new Scheduler({ db: ctx.db }).add(articleViewsTask(counter, 60_000));
    scheduler.start();
    await read("art-welcome", "203.0.113.5");
    await read("art-welcome", "203.0.113.6");
    await scheduler.stop();
    expect(await stored()).toMatchObject({ "art-welcome": { total: 2 } });
  });
});
