// An admin writes an article, publishes it and a visitor reads it on the
// rendered help page; once unpublished the page is the help centre's 404 page, with status 404.
import { expect, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";

test("publish an article, read it on the help page, unpublish it and get the 404 page", async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const title = `Paying by bank transfer ${suffix}`;
  const content = [
    "Bank transfers are available on yearly plans.",
    "",
    "## Before you start",
    "",
    "- Your invoice number",
    "- The **exact** amount due",
    "",
    "Questions? See [our invoices guide](/help/demo/articles/invoices).",
  ].join("\n");
  await signIn(page);

  // Write it in the knowledge base, in Billing (a source the demo agent answers from).
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Knowledge base" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Knowledge base" })).toBeVisible();
  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New article" })).toBeVisible();
  await page.getByLabel("Title").fill(title);
  const source = page.getByLabel("Source");
  await expect(source.getByRole("option", { name: "Billing" })).toBeAttached();
  await source.selectOption({ label: "Billing" });
  await page.getByLabel("Content (Markdown)").fill(content);
  // The preview renders the Markdown as the help page will.
  await expect(page.getByRole("region", { name: "Preview" }).getByRole("heading", { name: "Before you start" })).toBeVisible();
  await page.getByRole("button", { name: "Create article" }).click();

  await expect(page).toHaveURL(/\/panel\/knowledge\/articles\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const articleId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  // The help page's address is the slug made from the title; the id address redirects to it.
  const helpPath = `/help/demo/articles/${title.toLowerCase().replaceAll(" ", "-")}`;
  const visibility = page.getByRole("region", { name: "Visibility" });
  await expect(visibility).toContainText("Draft: not visible to visitors or agents.");

  // The article's help-page link, for the demo agent; a draft is not found there yet.
  const helpLinks = page.getByRole("region", { name: "Help pages" });
  const helpLink = helpLinks.getByRole("link", { name: helpPath });
  await expect(helpLink).toHaveAttribute("href", helpPath);
  await expect(helpLinks).toContainText("show “Not found” until the article is published");
  expect((await request.get(helpPath)).status()).toBe(404);

  // Publish, then read it as a visitor.
  await visibility.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(visibility.getByRole("status")).toHaveText("Published.");
  await expect(visibility).toContainText("Visible in the help centre");
  await expect(helpLinks).not.toContainText("Not found");
  // The old address by id answers 308 to the slug's.
  const byId = await request.get(`/help/demo/articles/${articleId}`, { maxRedirects: 0 });
  expect(byId.status()).toBe(308);
  expect(new URL(byId.headers().location ?? "", baseURL).pathname).toBe(helpPath);

  const published = await visitAsNewVisitor(browser, baseURL, helpPath);
  try {
    const visitor = published.page;
    expect(published.response.status()).toBe(200);
    expect(published.response.headers()["cache-control"]).toBe("private, max-age=30");
    await expect(visitor).toHaveTitle(`${title} – Demo Help Centre`);
    const article = visitor.getByRole("article");
    await expect(article.getByRole("heading", { level: 1, name: title })).toBeVisible();
    // Left on "Detect from the text", the page is marked with the language the text is written in.
    await expect(article).toHaveAttribute("lang", "en");
    await expect(article.getByRole("heading", { level: 2, name: "Before you start" })).toBeVisible();
    await expect(article.getByRole("listitem")).toHaveText(["Your invoice number", "The exact amount due"]);
    await expect(article.locator("strong")).toHaveText("exact");
    await expect(article.getByRole("link", { name: "our invoices guide" })).toHaveAttribute("href", "/help/demo/articles/invoices");
    const breadcrumb = visitor.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Billing" })).toHaveAttribute("href", "/help/demo/collections/src-billing");
    await expect(breadcrumb.locator("[aria-current=page]")).toHaveText(title);
    // It is listed in its collection too.
    await breadcrumb.getByRole("link", { name: "Billing" }).click();
    await expect(visitor.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
    await expect(visitor.getByRole("link", { name: title })).toBeVisible();
    await visitor.getByRole("link", { name: title }).click();
    await expect(visitor.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await keepScreenshot(visitor, testInfo, "help-article-published");
  } finally {
    await published.close();
  }

  // A language chosen in the editor marks the page instead (here a deliberate French).
  await expect(page.getByLabel("Language")).toHaveValue("");
  await page.getByLabel("Language").selectOption({ label: "Français" });
  await page.getByRole("button", { name: "Save article" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  const french = await visitAsNewVisitor(browser, baseURL, helpPath);
  try {
    await expect(french.page.getByRole("article")).toHaveAttribute("lang", "fr");
  } finally {
    await french.close();
  }

  // Unpublish: the next visitor gets the 404 page, with status 404.
  await visibility.getByRole("button", { name: "Unpublish" }).click();
  await expect(visibility.getByRole("status")).toHaveText("Unpublished: hidden from help centres within 30 seconds.");
  await expect(visibility).toContainText("Draft: not visible to visitors or agents.");

  const unpublished = await visitAsNewVisitor(browser, baseURL, helpPath);
  try {
    expect(unpublished.response.status()).toBe(404);
    await expect(unpublished.page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(unpublished.page.getByText(title)).toHaveCount(0);
    // And it is gone from its collection.
    const collection = await unpublished.page.goto("/help/demo/collections/src-billing");
    expect(collection?.status()).toBe(200);
    await expect(unpublished.page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
    await expect(unpublished.page.getByRole("link", { name: title })).toHaveCount(0);
  } finally {
    await unpublished.close();
  }
});
