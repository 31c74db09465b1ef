// The help centre's search box in a browser (demo data): a natural question lists its article
// first, a typo'd word offers "Did you mean" as a link to the corrected search, a query no article
// holds whole still lists the closest matches, and a query nothing matches keeps the empty state.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { keepScreenshot } from "./support.ts";

/** Types a query into the home page's search box and submits it. */
async function searchFromHome(page: Page, query: string): Promise<void> {
  await page.goto("/help/demo");
  await page.getByRole("searchbox", { name: "Search the help centre" }).fill(query);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/help/demo/search?q=${encodeURIComponent(query).replace(/%20/g, "+")}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Search results for “${query}”`);
}

/** The titles of the listed articles, in order. */
function resultTitles(page: Page) {
  return page.getByRole("main").locator(".help-article-list .help-article-title");
}

test("a natural question finds its article first", async ({ page }, testInfo) => {
  await searchFromHome(page, "how do I get my money back after cancelling");
  await expect(resultTitles(page).first()).toHaveText("Refund policy and how to request a refund");
  await expect(page.getByText("Did you mean")).toHaveCount(0);
  await keepScreenshot(page, testInfo, "help-search-question");
});

test("a typo'd word finds its article and offers the corrected search", async ({ page }, testInfo) => {
  await searchFromHome(page, "refnud policy");
  await expect(resultTitles(page).first()).toHaveText("Refund policy and how to request a refund");
  const suggestion = page.locator(".help-suggestion").getByRole("link", { name: "refund policy", exact: true });
  await expect(suggestion).toBeVisible();
  await expect(page.locator(".help-suggestion")).toHaveText("Did you mean refund policy?");
  await keepScreenshot(page, testInfo, "help-search-typo");
  const violations = (await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]).analyze()).violations;
  expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

  await suggestion.click();
  await expect(page).toHaveURL("/help/demo/search?q=refund%20policy");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search results for “refund policy”");
  await expect(resultTitles(page).first()).toHaveText("Refund policy and how to request a refund");
  await expect(page.getByText("Did you mean")).toHaveCount(0);
});

test("the closest matches when no article holds every word; the empty state when nothing matches", async ({ page }) => {
  await searchFromHome(page, "refund bitcoin");
  await expect(page.getByRole("status")).toHaveText("No article contains every word; showing the closest matches.");
  await expect(resultTitles(page).first()).toHaveText("Refund policy and how to request a refund");

  await searchFromHome(page, "zyxwvut qqqq");
  await expect(page.getByRole("status")).toHaveText("No articles match your search. Try other or fewer words.");
  await expect(resultTitles(page)).toHaveCount(0);
});
