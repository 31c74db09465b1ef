// The agent page in tabs: the tab is in the address (a reload and a shared link keep it), the
// arrow keys move between tabs, each tab's Save stores that tab's fields only, a tab with edits not
// saved is marked (and leaving the page asks), the look preview stays in sight while the form
// scrolls, and every tab passes axe at a desktop and a phone width. The home's checklist opens the
// agent's key card beside a copy-ready curl for this server. On a phone the panel's navigation
// folds behind a Menu button, the audit log's filters behind a Filters button, and wide tables
// say they scroll sideways; the widget's close button is at least 44 x 44 px.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { E2E_PORT } from "./playwright.config.ts";
import { type AgentTabName, agentSettings, agentTab, openAgents, signIn, uniqueSuffix } from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;
const SHOTS = path.join(__dirname, "artifacts", "screenshots");
const TABS: AgentTabName[] = ["General", "Answers", "Widget & look", "Channels", "Limits", "API key", "Danger zone"];

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: "disabled" });
}

/** How opaque the tab row's fades are, at its start and its end ("1" where more tabs wait). */
async function tabFades(page: Page): Promise<{ start: string; end: string }> {
  return page
    .getByRole("tablist")
    .locator("..")
    .evaluate((row) => ({ start: getComputedStyle(row, "::before").opacity, end: getComputedStyle(row, "::after").opacity }));
}

async function createAgent(page: Page, agentId: string, name: string): Promise<void> {
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(name);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);
}

test("the agent page's tabs: in the address, one Save each, unsaved edits marked, the preview in sight, axe-clean", async ({ page }) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-tabs-${suffix}`;
  const name = `E2E tabs ${suffix}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await createAgent(page, agentId, name);

  // The browser tab names the agent and the section.
  await expect(page).toHaveTitle(`${name} · Agents · Parley panel`);
  const tablist = page.getByRole("tablist", { name: "Agent settings" });
  await expect(tablist.getByRole("tab")).toHaveText(TABS);
  await expect(tablist.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
  // Only the selected tab's panel is shown.
  await expect(page.getByRole("tabpanel")).toHaveCount(1);

  // The arrow keys move between tabs and show each; the address follows.
  await tablist.getByRole("tab", { name: "General" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tablist.getByRole("tab", { name: "Answers" })).toBeFocused();
  await expect(tablist.getByRole("tab", { name: "Answers" })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(`/panel/agents/${agentId}?tab=answers`);
  await page.keyboard.press("End");
  await expect(tablist.getByRole("tab", { name: "Danger zone" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Danger zone" }).getByRole("button", { name: "Delete agent…" })).toBeVisible();
  await page.keyboard.press("Home");
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  // An edit on General not saved yet: the tab is marked, and stays so while another tab is shown.
  const general = await agentSettings(page, "General");
  await general.getByLabel("Name").fill(`${name} renamed`);
  const limits = await agentSettings(page, "Limits");
  await expect(tablist.getByRole("tab", { name: "General (unsaved changes)" })).toBeVisible();
  await expect(page.getByText("Not saved yet: your changes on General.")).toBeVisible();

  // Saving Limits stores the limit and nothing of General's.
  await limits.getByLabel("Monthly conversation limit").fill("50");
  await limits.getByRole("button", { name: "Save limits" }).click();
  await expect(limits.getByRole("status")).toHaveText("Limits saved.");
  await expect(tablist.getByRole("tab", { name: "Limits" })).toHaveAccessibleName("Limits");
  await expect(tablist.getByRole("tab", { name: "General (unsaved changes)" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  // Leaving with General unsaved asks first; the reload keeps the Limits tab.
  const asked = new Promise<string>((resolve) => {
    page.once("dialog", async (dialog) => {
      resolve(dialog.type());
      await dialog.accept();
    });
  });
  await page.reload();
  expect(await asked).toBe("beforeunload");
  await expect(page).toHaveURL(`/panel/agents/${agentId}?tab=limits`);
  await expect(tablist.getByRole("tab", { name: "Limits" })).toHaveAttribute("aria-selected", "true");
  await expect(limits.getByLabel("Monthly conversation limit")).toHaveValue("50");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  // General's own Save stores the name; the mark goes.
  await agentTab(page, "General");
  await general.getByLabel("Name").fill(`${name} renamed`);
  await general.getByRole("button", { name: "Save general settings" }).click();
  await expect(general.getByRole("status")).toHaveText("General settings saved.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${name} renamed`);
  await expect(tablist.getByRole("tab", { name: "General" })).toHaveAccessibleName("General");
  await expect(page.getByText("Not saved yet")).toHaveCount(0);

  // A shared link opens its tab.
  await page.goto(`/panel/agents/${agentId}?tab=channels`);
  await expect(tablist.getByRole("tab", { name: "Channels" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Channels" }).getByLabel("Allowed origins")).toBeVisible();

  // The look preview stays in sight while the form scrolls (desktop widths).
  const look = await agentTab(page, "Widget & look");
  const preview = look.getByRole("region", { name: "Preview" });
  await look.getByRole("button", { name: "Save look" }).scrollIntoViewIfNeeded();
  await expect(look.getByRole("button", { name: "Save look" })).toBeInViewport();
  const box = await preview.boundingBox();
  expect(box?.y).toBeGreaterThanOrEqual(0);
  expect(box?.y).toBeLessThanOrEqual(32);
  await expect(preview.getByTestId("preview-widget-title")).toBeInViewport();
  await page.screenshot({ path: path.join(SHOTS, "agent-tabs-look-scrolled-1280.png"), animations: "disabled" });

  // On a phone the tabs stay one row that scrolls sideways, a fade on the side where more wait;
  // the keys bring the tab they select into sight, and a link opens with its tab in sight.
  await page.setViewportSize({ width: 390, height: 844 });
  await agentTab(page, "General");
  const tops = await tablist.getByRole("tab").evaluateAll((tabs) => tabs.map((tab) => tab.getBoundingClientRect().top));
  expect(new Set(tops).size, "the tabs' rows").toBe(1);
  expect(await tablist.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
  await expect.poll(() => tabFades(page)).toEqual({ start: "0", end: "1" });
  await tablist.getByRole("tab", { name: "General" }).focus();
  await page.keyboard.press("End");
  await expect(tablist.getByRole("tab", { name: "Danger zone" })).toBeFocused();
  await expect(tablist.getByRole("tab", { name: "Danger zone" })).toBeInViewport({ ratio: 0.99 });
  await expect(tablist.getByRole("tab", { name: "General" })).not.toBeInViewport();
  await expect.poll(() => tabFades(page)).toEqual({ start: "1", end: "0" });
  await page.keyboard.press("Home");
  await expect(tablist.getByRole("tab", { name: "General" })).toBeInViewport({ ratio: 0.99 });
  await page.keyboard.press("ArrowLeft");
  await expect(tablist.getByRole("tab", { name: "Danger zone" })).toHaveAttribute("aria-selected", "true");
  await expect(tablist.getByRole("tab", { name: "Danger zone" })).toBeInViewport({ ratio: 0.99 });
  await page.goto(`/panel/agents/${agentId}?tab=api-key`);
  await expect(tablist.getByRole("tab", { name: "API key" })).toBeInViewport({ ratio: 0.99 });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect.poll(() => tabFades(page)).toEqual({ start: "0", end: "0" });
  // A window made narrower keeps the selected tab in sight.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(tablist.getByRole("tab", { name: "API key" })).toBeInViewport({ ratio: 0.99 });

  // Every tab, at a desktop and a phone width: no axe violation.
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const tab of TABS) {
      await agentTab(page, tab);
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await axeViolations(page), `${tab} at ${width} px`).toEqual([]);
      await shot(page, `agent-tabs-${tab.toLowerCase().replace(/[^a-z]+/g, "-")}-${width}`);
    }
  }
});

test("the checklist opens the agent's key card with a copy-ready curl for this server", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: APP_ORIGIN });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  // Other journeys may have done every step on this server: the key step is shown as to do.
  await page.route(/\/api\/trpc\/[^?]*home\.get/, async (route) => {
    const response = await route.fetch();
    const names = new URL(route.request().url()).pathname.replace(/^.*\/api\/trpc\//, "").split(",");
    const body = (await response.json()) as Array<{ result: { data: { gettingStarted: Record<string, unknown> } } }>;
    const home = body[names.indexOf("home.get")];
    if (home) home.result.data.gettingStarted = { ...home.result.data.gettingStarted, keyGenerated: false };
    await route.fulfill({ response, json: body });
  });
  await page.reload();
  const checklist = page.getByRole("region", { name: "Getting started" });
  await expect(checklist).toContainText("Embed the chat widget");
  await expect(checklist).toContainText("the help centre does not count");
  await checklist.getByRole("link", { name: /^Generate an API key/ }).click();

  await expect(page).toHaveURL(/\/panel\/agents\/[^/?]+\?tab=api-key$/);
  const agentId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const panel = page.getByRole("tabpanel", { name: "API key" });
  await expect(panel.getByRole("region", { name: "HTTP API key" })).toBeVisible();
  await expect(panel.getByRole("button", { name: /^(Generate|Rotate) key$/ })).toBeVisible();
  const example = panel.getByRole("region", { name: "Try the API" });
  const command = [
    `curl -X POST '${APP_ORIGIN}/api/agent/${agentId}/messages' \\`,
    `  -H "Authorization: Bearer $PARLEY_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"message": "How do I reset my password?"}'`,
  ].join("\n");
  await expect(example.getByLabel("Example request")).toHaveValue(command);
  await example.getByRole("button", { name: "Copy command" }).click();
  await expect(example.getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await shot(page, "agent-tabs-checklist-key-card-1280");
});

test("on a phone: the navigation folds behind Menu, the audit log's filters behind Filters, wide tables say they scroll", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const nav = page.getByRole("navigation", { name: "Panel" });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
  const menuBox = await menu.boundingBox();
  expect(menuBox?.height).toBeGreaterThanOrEqual(44);
  await shot(page, "phone-home-menu-closed-390");

  // The home's activity table is wider than the phone: it says so, and scrolls from the keyboard.
  const activity = page.getByRole("region", { name: "Activity per agent (scrolls sideways)" });
  await expect(activity).toBeVisible();
  await expect(page.getByText("Scroll sideways for more columns →").first()).toBeVisible();
  await activity.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => activity.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  expect(await axeViolations(page), "home at 390 px").toEqual([]);

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Agents" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign out" })).toBeVisible();
  await shot(page, "phone-home-menu-open-390");
  expect(await axeViolations(page), "open menu at 390 px").toEqual([]);
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await menu.click();
  await nav.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  // A new page folds the menu again.
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();

  // The audit log's filters wait behind a button that says how many are set.
  const filters = page.getByRole("form", { name: "Filter the audit log" });
  const toggle = page.getByRole("button", { name: /^Filters/ });
  await expect(filters).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(filters).toBeVisible();
  await filters.getByLabel("Target").selectOption({ index: 1 });
  await expect(toggle).toHaveText("Filters (1 set)");
  await shot(page, "phone-audit-filters-390");
  expect(await axeViolations(page), "audit at 390 px").toEqual([]);

  // The widget's close button is a touch target a finger can hit (44 x 44 px at least).
  await page.goto("/help/demo");
  await page.getByRole("button", { name: "Open chat" }).click();
  const close = page.getByRole("dialog").getByRole("button", { name: "Close chat" });
  // Measured once the opening animation has settled, to the CSS pixel (a transform leaves 43.99999).
  const closeSize = async () => {
    const box = await close.boundingBox();
    return Math.min(Math.round(box?.width ?? 0), Math.round(box?.height ?? 0));
  };
  await expect.poll(closeSize).toBeGreaterThanOrEqual(44);
  await close.click();
  await expect(close).toBeHidden();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();

  // On a desktop: no Menu or Filters button, everything in sight.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(menu).toBeHidden();
  await expect(nav).toBeVisible();
  await expect(toggle).toBeHidden();
  await expect(filters).toBeVisible();
});
