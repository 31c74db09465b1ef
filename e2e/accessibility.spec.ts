// axe-core finds no violation of any impact on the help pages and /docs, on a desktop and a phone
// (the panel's pages: panel.spec.ts). /docs also works as a reference: its navigation leads to each
// operation, and the samples switch language together and copy.
import { expect, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { keepScreenshot } from "./support.ts";

const PUBLIC_PAGES = [
  "/help/demo",
  "/help/demo/collections/src-billing",
  "/help/demo/articles/refunds",
  "/help/demo/articles/api-keys",
  "/help/demo/search?q=refund",
  "/help/demo/search",
  "/help/demo/articles/draft-only",
  "/docs",
];

test("the help pages and /docs pass axe-core with no violation, on a desktop and a phone", async ({ page }) => {
  test.setTimeout(180_000);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await axeViolations(page), `${path} at ${width} px`).toEqual([]);
    }
  }
});

test("/docs reads like a reference: navigation, samples per language in tabs, copy buttons, no sideways scrolling", async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto("/docs");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
    await keepScreenshot(page, testInfo, `docs-${width}`, { fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  const nav = page.getByRole("navigation", { name: "API reference" });
  await nav.getByRole("link", { name: "List or search help articles" }).click();
  await expect(page).toHaveURL(/#listHelpArticles$/);
  const section = page.getByRole("region", { name: "List or search help articles" });
  await expect(section.getByRole("heading", { level: 3 })).toBeInViewport();

  // Choosing a language switches every sample; arrow keys move between tabs.
  await section.getByRole("tab", { name: "Typed client" }).click();
  await expect(section.getByRole("tabpanel")).toContainText("parley.help.articles(");
  const send = page.getByRole("region", { name: "Send a message" });
  await expect(send.getByRole("tab", { name: "Typed client" })).toHaveAttribute("aria-selected", "true");
  await section.getByRole("tab", { name: "Typed client" }).press("ArrowRight");
  await expect(section.getByRole("tab", { name: "fetch" })).toBeFocused();
  await expect(section.getByRole("tabpanel")).toContainText("await fetch(");
  // A key route has no typed-client call: it shows curl when the page chose the client.
  await section.getByRole("tab", { name: "Typed client" }).click();
  const keys = page.getByRole("region", { name: "Generate or rotate the agent's HTTP API key" });
  await expect(keys.getByRole("tab", { name: "curl" })).toHaveAttribute("aria-selected", "true");

  await section.getByRole("tab", { name: "curl" }).click();
  await section
    .getByRole("button", { name: /^Copy: / })
    .first()
    .click();
  await expect(section.getByRole("button", { name: /^Copy: / }).first()).toHaveText(/Copied|Press Ctrl\+C/);
  await keepScreenshot(page, testInfo, "docs-operation-1280", { fullPage: false });
});
