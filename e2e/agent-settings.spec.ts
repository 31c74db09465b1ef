// The agent settings form's widget limits: an admin sets the widget's own limits and its share of
// the monthly quotas, a value outside core's bounds is refused with the rule next to its field,
// the saved values survive a reload, and the widget endpoint applies them at once (one connection
// per visitor IP, times the suite's E2E_WIDGET_CONNECTIONS_SCALE: the next from the same browser is
// closed with 4429).
import path from "node:path";
import { expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import { E2E_PORT, E2E_WIDGET_CONNECTIONS_SCALE } from "./playwright.config.ts";
import { agentSettings, agentTab, keepScreenshot, openAgents, signIn, uniqueSuffix } from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;

/** A screenshot of one part of the page (the full-page ones are too tall to read at 390 px). */
async function keepElementScreenshot(locator: Locator, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(testInfo.project.testDir, "artifacts", "screenshots", `${name}.png`);
  await locator.screenshot({ path: file, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** Opens /ws from the page (its Origin is the app's) and resolves with "ready" or the close code. */
function openWidgetSocket(page: Page, agentId: string): Promise<string> {
  return page.evaluate(
    (id) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`, "parley.v1");
        (window as unknown as { sockets?: WebSocket[] }).sockets ??= [];
        (window as unknown as { sockets: WebSocket[] }).sockets.push(ws);
        ws.onopen = () => ws.send(JSON.stringify({ type: "hello", agentId: id }));
        ws.onmessage = (event) => {
          if (JSON.parse(String(event.data)).type === "ready") resolve("ready");
        };
        ws.onclose = (event) => resolve(`closed ${event.code} ${event.reason}`);
      }),
    agentId,
  );
}

test("set the widget's limits and quota share in the agent settings; they are validated, saved and applied", async ({ page }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-widget-limits-${suffix}`;
  await signIn(page);
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E widget limits ${suffix}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const channels = await agentSettings(page, "Channels");
  await channels.getByLabel("Allowed origins").fill(APP_ORIGIN);
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");

  const settings = await agentTab(page, "Limits");
  const widgetLimits = settings.getByRole("group", { name: "Widget limits" });
  // Empty fields mean the defaults, which the form names.
  await expect(widgetLimits.getByLabel("Connections per visitor IP")).toHaveValue("");
  await expect(widgetLimits.getByLabel("Connections per visitor IP")).toHaveAttribute("placeholder", "Default (20)");
  await expect(widgetLimits).toContainText("1 to 1000; empty = default (20).");

  await widgetLimits.getByLabel("Connections per visitor IP").fill("1");
  await widgetLimits.getByLabel("Messages per connection per minute").fill("5");
  await widgetLimits.getByLabel("Messages per visitor IP per minute").fill("25");
  // Over core's bound: refused, with the rule under the field, and nothing saved.
  await widgetLimits.getByLabel("New conversations per visitor IP per hour").fill("20000");
  await widgetLimits.getByLabel("Widget conversations per month, at most").fill("300");
  await widgetLimits.getByLabel("Widget tokens per month, at most").fill("40000");
  await settings.getByRole("button", { name: "Save limits" }).click();
  const tooMany = widgetLimits.getByLabel("New conversations per visitor IP per hour");
  await expect(tooMany).toHaveAttribute("aria-invalid", "true");
  await expect(widgetLimits).toContainText("Enter a whole number from 1 to 10000, or leave empty for the default (20)");
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepScreenshot(page, testInfo, "agent-settings-widget-limits-error-1280");
  await keepElementScreenshot(widgetLimits, testInfo, "agent-settings-widget-limits-error-fieldset-1280");

  await tooMany.fill("12");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expect(settings.getByRole("status")).toHaveText("Limits saved.");
  await expect(tooMany).not.toHaveAttribute("aria-invalid", "true");

  // Stored: a reload shows every value.
  await page.reload();
  await expect(widgetLimits.getByLabel("Connections per visitor IP")).toHaveValue("1");
  await expect(widgetLimits.getByLabel("Messages per connection per minute")).toHaveValue("5");
  await expect(widgetLimits.getByLabel("Messages per visitor IP per minute")).toHaveValue("25");
  await expect(widgetLimits.getByLabel("New conversations per visitor IP per hour")).toHaveValue("12");
  await expect(widgetLimits.getByLabel("Widget conversations per month, at most")).toHaveValue("300");
  await expect(widgetLimits.getByLabel("Widget tokens per month, at most")).toHaveValue("40000");
  await keepScreenshot(page, testInfo, "agent-settings-widget-limits-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "agent-settings-widget-limits-390");
  await keepElementScreenshot(widgetLimits, testInfo, "agent-settings-widget-limits-fieldset-390");

  // Applied at once: this browser may hold one connection to the agent (scaled for the suite); the next is refused.
  for (let i = 0; i < 1 * E2E_WIDGET_CONNECTIONS_SCALE; i++) expect(await openWidgetSocket(page, agentId)).toBe("ready");
  expect(await openWidgetSocket(page, agentId)).toBe("closed 4429 Too many connections");
  await page.evaluate(() => {
    for (const ws of (window as unknown as { sockets: WebSocket[] }).sockets) ws.close();
  });

  // Emptying a field goes back to the default.
  await page.setViewportSize({ width: 1280, height: 900 });
  await widgetLimits.getByLabel("Connections per visitor IP").fill("");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expect(settings.getByRole("status")).toHaveText("Limits saved.");
  await page.reload();
  await expect(widgetLimits.getByLabel("Connections per visitor IP")).toHaveValue("");
  for (let i = 0; i <= 1 * E2E_WIDGET_CONNECTIONS_SCALE; i++) expect(await openWidgetSocket(page, agentId)).toBe("ready");
});
