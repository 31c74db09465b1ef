// The rendered help centre in a browser: no serious or critical axe-core violations,
// keyboard navigation, phone-sized screens, and search without JavaScript. Demo data only.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { keepScreenshot } from "./support.ts";

const pages = [
  { name: "home", path: "/help/demo", status: 200, h1: "How can we help?" },
  { name: "article", path: "/help/demo/articles/refunds", status: 200, h1: "Refund policy and how to request a refund" },
  { name: "search", path: "/help/demo/search?q=refund", status: 200, h1: "Search results for “refund”" },
  { name: "empty search", path: "/help/demo/search", status: 200, h1: "Search" },
  { name: "collection", path: "/help/demo/collections/src-billing", status: 200, h1: "Billing" },
  { name: "not found", path: "/help/demo/articles/draft-only", status: 404, h1: "Page not found" },
];

/** axe-core's WCAG 2.x A/AA rules plus its best practices; violations of serious or critical impact. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  // A check that ran on the page (not on an empty frame) passes rules.
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
}

test.describe("help pages pass axe-core", () => {
  for (const { name, path, status, h1 } of pages) {
    test(`${name} (${path})`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test("in the dark colour scheme too", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    for (const { path } of pages) {
      await page.goto(path);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
});

test("an article renders with its breadcrumbs, date and metadata", async ({ page }, testInfo) => {
  const response = await page.goto("/help/demo/articles/refunds");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toBe("private, max-age=30");
  await expect(page).toHaveTitle("Refund policy and how to request a refund – Demo Help Centre");
  await expect(page.locator("link[rel=canonical]")).toHaveAttribute("href", /\/help\/demo\/articles\/refunds$/);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S/);
  const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(breadcrumb.getByRole("link")).toHaveText(["Help centre", "Billing"]);
  await expect(page.getByRole("article").locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(page.getByRole("complementary", { name: "More in Billing" }).getByRole("link")).toHaveText([
    "Finding, downloading and correcting invoices",
  ]);
  await keepScreenshot(page, testInfo, "help-article");
});

test.describe("keyboard navigation", () => {
  test("Tab reaches the skip link, then the search box; a search and a result open with the keyboard", async ({ page }) => {
    await page.goto("/help/demo");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();

    // Tab on until the search box has focus, in a handful of presses.
    const search = page.getByRole("searchbox", { name: "Search the help centre" });
    for (let presses = 0; presses < 5 && !(await search.evaluate((element) => element === document.activeElement)); presses++) {
      await page.keyboard.press("Tab");
    }
    await expect(search).toBeFocused();
    await page.keyboard.type("invoices");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/help/demo/search?q=invoices");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search results for “invoices”");

    // Forward through the page until the first result's link has focus, then open it.
    const result = page.getByRole("main").getByRole("link", { name: "Finding, downloading and correcting invoices" });
    for (let presses = 0; presses < 15 && !(await result.evaluate((element) => element === document.activeElement)); presses++) {
      await page.keyboard.press("Tab");
    }
    await expect(result).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/help/demo/articles/invoices");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finding, downloading and correcting invoices");
  });

  test("the skip link moves focus to the main content", async ({ page }) => {
    await page.goto("/help/demo/articles/refunds");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    // The next Tab lands inside the main content (the breadcrumbs), past the header.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Help centre" })).toBeFocused();
  });

  test("every focusable element shows a focus indicator", async ({ page }) => {
    await page.goto("/help/demo/articles/refunds");
    for (let presses = 0; presses < 12; presses++) {
      await page.keyboard.press("Tab");
      const indicator = await page.evaluate(() => {
        // Focus inside a shadow root (the chat widget's launcher) shows on its host: look inside.
        let element = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        if (!(element instanceof HTMLElement) || element === document.body) return { tag: "body", visible: true };
        const style = getComputedStyle(element);
        const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
        return {
          tag: `${element.tagName.toLowerCase()} ${(element.textContent?.trim() || element.getAttribute("aria-label") || "").slice(0, 40)}`,
          visible: outline || style.boxShadow !== "none",
        };
      });
      expect(indicator.visible, `focus indicator on ${indicator.tag}`).toBe(true);
    }
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test("pages fit the screen (no sideways scrolling) and pass axe-core", async ({ page }) => {
    // Plus an article with a wide code block: the block scrolls, the page does not.
    for (const path of [...pages.map((entry) => entry.path), "/help/demo/articles/api-keys"]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the home page lists the collections and search works", async ({ page }) => {
    await page.goto("/help/demo");
    const collections = page.getByRole("region", { name: "Collections" });
    await expect(collections.getByRole("link")).toHaveCount(2);
    await expect(collections.getByRole("link", { name: /Getting started/ })).toHaveText(/Getting started\s*3 articles/);
    await expect(collections.getByRole("link", { name: /Billing/ })).toHaveText(/Billing\s*2 articles/);
    await page.getByRole("searchbox", { name: "Search the help centre" }).fill("password");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL("/help/demo/search?q=password");
    await expect(page.getByRole("link", { name: "How to reset your password" })).toBeVisible();
    await expect(page.getByRole("main").locator("mark").first()).toHaveText(/password/i);
  });
});
