// Help-centre article views in a browser (demo data): visitors at different addresses open an
// article (one reloads it, a crawler reads it too, one reads it through the JSON route); within a
// flush the empty search's "Popular articles" puts the most viewed first, and the panel's article
// list and article page show the counts. Each visitor is a browser context naming its own address
// in X-Forwarded-For (the suite's server trusts its loopback proxy); the suite's other journeys
// browse as HeadlessChrome, a crawler, so only these views count.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { keepScreenshot, signIn } from "./support.ts";

const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
// The two oldest visible demo articles: by date alone (no views) they are listed last.
const WELCOME = "Welcome to Acme Cloud";
const REFUNDS = "Refund policy and how to request a refund";

async function visitor(browser: Browser, baseURL: string | undefined, address: string, userAgent = DESKTOP) {
  return browser.newContext({ baseURL, userAgent, extraHTTPHeaders: { "x-forwarded-for": address } });
}

async function openArticle(page: Page, slug: string, title: string): Promise<void> {
  await page.goto(`/help/demo/articles/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  // Visitors never see a count.
  await expect(page.getByRole("main")).not.toContainText(/\d+ views?\b/);
}

test("article views rank the popular articles and show in the panel", async ({ browser, baseURL, page }, testInfo) => {
  // Four visitors read the welcome article; the first reloads it twice more (one view).
  for (let visitorNumber = 1; visitorNumber <= 4; visitorNumber += 1) {
    const context = await visitor(browser, baseURL, `198.51.100.${10 + visitorNumber}`);
    const reader = await context.newPage();
    await openArticle(reader, "welcome", WELCOME);
    if (visitorNumber === 1) {
      await reader.reload();
      await reader.reload();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(WELCOME);
    }
    await context.close();
  }
  // Two read the refunds article: one on its page, one through the JSON route; listing counts nothing.
  const pageReader = await visitor(browser, baseURL, "198.51.100.21");
  await openArticle(await pageReader.newPage(), "refunds", REFUNDS);
  await pageReader.close();
  const apiReader = await visitor(browser, baseURL, "198.51.100.22");
  // A context's request API sends Playwright's own User-Agent (automation, counted as no visitor) unless told.
  const fromBrowser = { headers: { "user-agent": DESKTOP } };
  expect((await apiReader.request.get("/api/agent/demo/help/articles/art-refunds", fromBrowser)).status()).toBe(200);
  expect((await apiReader.request.get("/api/agent/demo/help/articles", fromBrowser)).status()).toBe(200);
  await apiReader.close();
  // A crawler reads both: no view.
  const crawler = await visitor(browser, baseURL, "198.51.100.99", GOOGLEBOT);
  const crawlerPage = await crawler.newPage();
  await openArticle(crawlerPage, "welcome", WELCOME);
  await openArticle(crawlerPage, "refunds", REFUNDS);
  await crawler.close();

  // Within a flush (every 5 s) the empty search offers the most viewed first. Each look is a new
  // visitor: a browser keeps a help page for 30 seconds (Cache-Control), so a reload would show it again.
  let searcher = await visitor(browser, baseURL, "198.51.100.31");
  let search = await searcher.newPage();
  const popularTitles = () => search.getByRole("region", { name: "Popular articles" }).getByRole("heading", { level: 3 });
  await expect(async () => {
    await searcher.close();
    searcher = await visitor(browser, baseURL, "198.51.100.31");
    search = await searcher.newPage();
    await search.goto("/help/demo/search?q=zyxwvut+qqqq");
    await expect(popularTitles()).toHaveCount(5, { timeout: 1_000 });
    expect((await popularTitles().allTextContents()).slice(0, 2)).toEqual([WELCOME, REFUNDS]);
  }).toPass({ timeout: 20_000 });
  for (const width of [1280, 390]) {
    await search.setViewportSize({ width, height: 900 });
    await keepScreenshot(search, testInfo, `help-views-popular-${width}`);
  }
  await searcher.close();

  // The panel: the list and the article page show the views.
  await signIn(page);
  const row = page.locator(".item").filter({ has: page.getByRole("link", { name: WELCOME, exact: true }) });
  const refundsRow = page.locator(".item").filter({ has: page.getByRole("link", { name: REFUNDS, exact: true }) });
  // The two refund reads may be stored by different flushes (every 5 s) and the list is read once
  // per search: each look loads the list again.
  await expect(async () => {
    await page.goto("/panel/knowledge");
    await page.getByLabel("Search articles").fill("refund policy");
    await expect(refundsRow.locator(".item-meta")).toContainText("· 2 views ·", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByLabel("Search articles").fill("welcome");
  await expect(row.locator(".item-meta")).toContainText("· 4 views ·");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(row.locator(".item-meta")).toBeVisible();
    await keepScreenshot(page, testInfo, `help-views-panel-list-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("link", { name: WELCOME, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: WELCOME })).toBeVisible();
  await expect(page.getByText(/· 4 views in the help centre$/)).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await keepScreenshot(page, testInfo, `help-views-panel-article-${width}`);
  }
});
