// The panel as a newcomer meets it: the home page (what needs a person, activity, quotas, the
// getting-started checklist), forms that say what to fix in words for people and take the focus
// there, and no axe-core violation of any impact on any panel page, on a desktop and a phone.
import { expect, type Page, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { keepScreenshot, signIn } from "./support.ts";

const PANEL_PAGES = [
  { path: "/panel", h1: "Home" },
  { path: "/panel/agents", h1: "Agents" },
  { path: "/panel/agents/demo", h1: "Acme Cloud help assistant" },
  { path: "/panel/knowledge", h1: "Knowledge base" },
  { path: "/panel/knowledge/sources/src-billing", h1: "Billing" },
  { path: "/panel/knowledge/articles/new", h1: "New article" },
  { path: "/panel/knowledge/articles/art-refunds", h1: /Refund/ },
  { path: "/panel/conversations", h1: "Conversations" },
  { path: "/panel/conversations/saved-replies", h1: "Saved replies" },
  { path: "/panel/usage", h1: "Usage" },
  { path: "/panel/webhooks", h1: "Webhooks" },
  { path: "/panel/people", h1: "People" },
  { path: "/panel/audit", h1: "Audit log" },
  { path: "/panel/account", h1: "Your account" },
];

/** What an empty install's home shows: nothing waiting, no agent, nothing set up. */
const EMPTY_HOME = {
  waiting: { count: 0, oldest: [] },
  activity: [],
  unansweredThisWeek: 0,
  ratingsThisWeek: { good: 0, okay: 0, bad: 0 },
  nearQuota: [],
  month: "2026-11",
  gettingStarted: { keyGenerated: false, articlePublished: false, widgetEmbedded: false, webhookAdded: false, agentId: null },
};

async function settled(page: Page) {
  await expect(page.getByText(/^Loading/).first()).toBeHidden();
}

test("every panel page passes axe-core with no violation, on a desktop and a phone", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const { path, h1 } of PANEL_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await settled(page);
      expect(await axeViolations(page), `${path} at ${width} px`).toEqual([]);
    }
  }
});

test("the home says what needs a person, how busy each agent is and what is left to set up", async ({ page }, testInfo) => {
  await signIn(page);
  const home = page.getByRole("main");
  await expect(home.getByRole("heading", { level: 2, name: /^Waiting for a person \(\d+\)$/ })).toBeVisible();
  const table = home.getByRole("table");
  await expect(table.getByRole("rowheader", { name: "Acme Cloud help assistant" })).toBeVisible();
  await expect(table.getByRole("link", { name: "Acme Cloud help assistant" })).toHaveAttribute("href", "/panel/conversations?agent=demo");
  await expect(home.getByRole("link", { name: /unanswered questions? in the last 7 days/ })).toBeVisible();
  await expect(home.getByRole("heading", { level: 2, name: "Close to a monthly limit" })).toBeVisible();
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await keepScreenshot(page, testInfo, `home-demo-${width}`);
  }

  // An empty install (the home's one call answered as for a workspace with nothing yet).
  // The panel batches its queries (/api/trpc/a,b?batch=1): only home.get's answer is replaced.
  await page.route(/\/api\/trpc\/[^?]*home\.get/, async (route) => {
    const response = await route.fetch();
    const names = new URL(route.request().url()).pathname.replace(/^.*\/api\/trpc\//, "").split(",");
    const body = (await response.json()) as unknown[];
    body[names.indexOf("home.get")] = { result: { data: EMPTY_HOME } };
    await route.fulfill({ response, json: body });
  });
  await page.reload();
  const checklist = home.getByRole("region", { name: "Getting started" });
  await expect(checklist).toContainText("0 of 4 done");
  for (const step of ["Generate an API key", "Publish an article", "Embed the chat widget", "Add a webhook"]) {
    await expect(checklist.getByRole("link", { name: new RegExp(`^${step}`) })).toBeVisible();
  }
  await expect(checklist.getByRole("listitem").first()).toContainText("(to do)");
  await expect(home).toContainText("No escalation is waiting");
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await keepScreenshot(page, testInfo, `home-empty-${width}`);
  }
});

test("an empty article is refused field by field, in words for people, with the focus on the first field", async ({ page }, testInfo) => {
  await signIn(page);
  await page.goto("/panel/knowledge/articles/new");
  await expect(page.getByRole("heading", { level: 1, name: "New article" })).toBeVisible();
  await page.getByRole("button", { name: "Create article" }).click();

  const title = page.getByLabel("Title");
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(title).toHaveAccessibleDescription("Enter a title");
  await expect(title).toBeFocused();
  const source = page.getByLabel("Source");
  await expect(source).toHaveAttribute("aria-invalid", "true");
  await expect(source).toHaveAccessibleDescription("Choose a source");
  const content = page.getByLabel("Content (Markdown)");
  await expect(content).toHaveAttribute("aria-invalid", "true");
  await expect(content).toHaveAccessibleDescription(/Write some content$/);
  await expect(page.getByRole("main")).not.toContainText("Too small");
  await expect(page.getByRole("main")).not.toContainText("expected string");
  // Every invalid field has the same red frame, the text input too.
  const frames = await page
    .locator('[aria-invalid="true"]')
    .evaluateAll((fields) => fields.map((field) => getComputedStyle(field).borderColor));
  expect(frames).toEqual(["rgb(180, 35, 24)", "rgb(180, 35, 24)", "rgb(180, 35, 24)"]); // --danger
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await keepScreenshot(page, testInfo, `form-errors-${width}`);
  }
  expect(await axeViolations(page)).toEqual([]);
});

test("the webhook form marks the event checkboxes when none is chosen", async ({ page }) => {
  await signIn(page);
  await page.goto("/panel/webhooks");
  await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/parley");
  const events = page.getByRole("group", { name: "Events" });
  for (const box of await events.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const first = events.getByRole("checkbox").first();
  await expect(first).toHaveAttribute("aria-invalid", "true");
  await expect(first).toHaveAccessibleDescription(/Choose at least one event type$/);
  await expect(first).toBeFocused();
});

test("the sign-in form names the empty field and focuses it", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter the email address you sign in with.");
  await expect(page.getByLabel("Email")).toBeFocused();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
});
