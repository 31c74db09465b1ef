// The help centre's search box in a browser (demo data): a natural question lists its article
// first, a typo'd word offers "Did you mean" as a link to the corrected search, a query no article
// holds whole still lists the closest matches, and a query nothing matches offers the chat and the
// most read articles.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
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

test("a word spelled right is searched as written, never offered as a typo of a help-centre word", async ({ page }) => {
  // "apple" is one letter from "apply", which the articles write; it is no typo.
  await searchFromHome(page, "apple pay");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search results for “apple pay”");
  await expect(page.getByText("Did you mean")).toHaveCount(0);
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

test("the closest matches when no article holds every word; the chat and the most read articles when nothing matches", async ({
  page,
}, testInfo) => {
  await searchFromHome(page, "refund bitcoin");
  await expect(page.getByRole("status")).toHaveText("No article contains every word; showing the closest matches.");
  await expect(resultTitles(page).first()).toHaveText("Refund policy and how to request a refund");

  await searchFromHome(page, "zyxwvut qqqq");
  await expect(page.getByRole("status")).toHaveText("No articles match your search. Try other or fewer words.");
  // No result list: the only articles listed are the most read (five), under their own heading.
  const popular = page.getByRole("region", { name: "Popular articles" });
  await expect(popular.getByRole("heading", { level: 3 })).toHaveCount(5);
  await expect(resultTitles(page)).toHaveCount(5);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await expect(page.getByRole("button", { name: "Ask us in the chat" })).toBeVisible();
    await keepScreenshot(page, testInfo, `help-search-nothing-${width}`);
    expect(await axeViolations(page), `the empty search at ${width} px`).toEqual([]);
  }

  // The chat opens from there, ready to type in.
  await page.getByRole("button", { name: "Ask us in the chat" }).click();
  const chat = page.getByRole("dialog", { name: "Chat with us" });
  await expect(chat).toBeVisible();
  await expect(chat.getByLabel("Your message")).toBeFocused();

  // A most-read article opens.
  await chat.getByRole("button", { name: "Close chat" }).click();
  await expect(chat).toBeHidden();
  const first = popular.getByRole("link").first();
  const title = await first.textContent();
  await first.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title ?? "");
});
