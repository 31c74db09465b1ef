// The business's own look and trying the agent: an admin gives a new agent a help-centre name,
// colour, widget title, greeting and a suggested question in the panel (the preview follows as
// they type), tries the agent in the test chat (the answer names the article it used), copies the
// embed snippet; the help centre shows the name and colour (its 404 page too, inside its own
// frame), and the widget opens with the title, greeting and suggestion, which sends on click.
import { expect, type Page, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { E2E_PORT } from "./playwright.config.ts";
import { agentSettings, agentTab, keepScreenshot, openAgents, signIn, uniqueSuffix } from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;

async function createLinkedAgent(page: Page, agentId: string, name: string) {
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(name);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);
  const sources = (await agentTab(page, "Answers")).getByRole("region", { name: "Linked sources" });
  await sources.getByRole("checkbox", { name: /Getting started/ }).check();
  await expect(sources.getByRole("status")).toHaveText("Sources updated.");
  const channels = await agentSettings(page, "Channels");
  await channels.getByLabel("Allowed origins").fill(APP_ORIGIN);
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");
}

test("brand the help centre and widget, try the agent, copy the snippet; visitors see the look", async ({ page, context }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-brand-${suffix}`;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: APP_ORIGIN });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await createLinkedAgent(page, agentId, `E2E brand ${suffix}`);

  const look = (await agentTab(page, "Widget & look")).getByRole("region", { name: "Help centre & widget" });
  const preview = look.getByRole("region", { name: "Preview" });
  // The default public name is the workspace's, never the agent's internal name.
  await expect(preview.getByTestId("preview-help-name")).toHaveText("Demo Help Centre");
  await look.getByLabel("Help centre name").fill("Acme Answers");
  await look.getByLabel("Help centre colour", { exact: true }).fill("#FFD500");
  await look.getByLabel("Logo address").fill("http://insecure.example.com/logo.png");
  await look.getByLabel("Widget title").fill("Acme support");
  await look.getByLabel("Greeting").fill("Hello from Acme! Ask away.");
  await look.getByRole("button", { name: "Add a suggestion" }).click();
  await look.getByRole("textbox", { name: "Suggestion 1" }).fill("How do I reset my password?");
  await expect(preview.getByTestId("preview-help-name")).toHaveText("Acme Answers");
  await expect(preview.getByTestId("preview-widget-title")).toHaveText("Acme support");
  await expect(preview).toContainText("Hello from Acme! Ask away.");
  await look.getByRole("button", { name: "Save look" }).click();
  // An http logo is refused next to its field; nothing is saved.
  await expect(look.getByLabel("Logo address")).toHaveAttribute("aria-invalid", "true");
  await expect(look).toContainText("Enter an address starting with https://");
  await look.getByLabel("Logo address").fill("");
  await look.getByRole("button", { name: "Save look" }).click();
  await expect(look.getByRole("status")).toHaveText("Help centre and widget saved.");
  expect(await axeViolations(page)).toEqual([]);
  await look.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, "branding-panel-1280");

  // Try it: a real turn; the answer names the article it used.
  const tryIt = (await agentTab(page, "Answers")).getByRole("region", { name: "Try it" });
  await tryIt.getByLabel("Test message").fill("How do I reset my password?");
  await tryIt.getByRole("button", { name: "Send" }).click();
  const log = tryIt.getByRole("list", { name: "Test conversation" });
  await expect(log).toContainText("Articles used: How to reset your password");
  await expect(log.getByRole("link", { name: "How to reset your password" })).toHaveAttribute(
    "href",
    `${APP_ORIGIN}/help/${agentId}/articles/reset-password`,
  );

  // The embed snippet, copied exactly.
  const embed = (await agentTab(page, "Channels")).getByRole("region", { name: "Embed the widget" });
  const snippet = `<script src="${APP_ORIGIN}/widget.js" data-agent-id="${agentId}" async></script>`;
  await expect(embed.getByLabel("Embed snippet")).toHaveValue(snippet);
  await embed.getByRole("button", { name: "Copy snippet" }).click();
  await expect(embed.getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  await agentTab(page, "Answers");
  await tryIt.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, "branding-try-it-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "branding-panel-390", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The help centre: its name in the header, on the accent with black text (yellow is light).
  await page.goto(`/help/${agentId}`);
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Acme Answers" })).toBeVisible();
  await expect(header).toHaveCSS("background-color", "rgb(255, 213, 0)");
  await expect(header).toHaveCSS("color", "rgb(0, 0, 0)");
  await expect(page).toHaveTitle("Acme Answers");
  await keepScreenshot(page, testInfo, "branding-help-1280");

  // A hidden or unknown article: status 404, inside the help centre's own frame with its search.
  const missing = await page.goto(`/help/${agentId}/articles/no-such-article`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Acme Answers" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("searchbox", { name: "Search the help centre" })).toBeVisible();
  await keepScreenshot(page, testInfo, "branding-help-404-1280");
  const unknownPage = { main: await page.getByRole("main").innerHTML(), title: await page.title() };
  // An article of a source this agent does not link: the very same page.
  const unlinked = await page.goto(`/help/${agentId}/articles/art-refunds`);
  expect(unlinked?.status()).toBe(404);
  expect({ main: await page.getByRole("main").innerHTML(), title: await page.title() }).toEqual(unknownPage);

  // The widget on the help centre: title, greeting and suggestion from the panel.
  await page.goto(`/help/${agentId}`);
  await page.getByRole("button", { name: "Open chat" }).click();
  const widget = page.getByRole("dialog", { name: "Acme support" });
  const conversation = widget.getByRole("log", { name: "Conversation" });
  await expect(conversation).toContainText("Hello from Acme! Ask away.");
  const suggestion = widget.getByRole("button", { name: "How do I reset my password?" });
  await expect(suggestion).toBeVisible();
  await keepScreenshot(page, testInfo, "branding-widget-1280");
  await suggestion.click();
  await expect(conversation.getByRole("link", { name: "How to reset your password" }).first()).toBeVisible();
  await expect(suggestion).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "branding-widget-390");
});
