// Voice in the panel: an admin turns voice on for an agent, picks its voice and language, sets its
// monthly voice minutes and its per-visitor voice limits (a value out of bounds is refused with the
// rule next to its field), saves, reloads and finds them kept; the usage page counts the voice
// minutes against the limit. (The transcript's voice marks are checked on real spoken turns in
// voice.spec.ts.)
import path from "node:path";
import { expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { agentTab, openAgents, signIn, uniqueSuffix } from "./support.ts";

const NO_RECOGNITION =
  "Speech recognition is not set up on this server: install PocketSphinx (apt-get install pocketsphinx pocketsphinx-en-us) or set SPEECH_BASE_URL. Visitors cannot talk until then.";

/** A screenshot of one part of the page (full pages are too tall to read at 390 px). */
async function keepElementScreenshot(locator: Locator, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(testInfo.project.testDir, "artifacts", "screenshots", `${name}.png`);
  await locator.screenshot({ path: file, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** What the server's speech engines offer, as the form reads it (the page's session cookie). */
async function voiceAvailability(page: Page): Promise<{ recognition: string | null; synthesis: string; voices: string[] }> {
  const response = await page.request.get("/api/trpc/agents.voiceAvailability");
  expect(response.status()).toBe(200);
  return (await response.json()).result.data;
}

test("turn voice on for an agent and set its minutes: validated, saved, kept; usage counts voice minutes", async ({ page }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-voice-${suffix}`;
  await signIn(page);
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E voice ${suffix}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const channels = page.getByRole("tabpanel", { name: "Channels" }).getByRole("region", { name: "Channels", exact: true });
  const voice = channels.getByRole("group", { name: "Voice", exact: true });
  const limitsTab = page.getByRole("tabpanel", { name: "Limits" });
  const limits = limitsTab.getByRole("group", { name: "Monthly limits" });
  const widgetLimits = limitsTab.getByRole("group", { name: "Widget limits" });

  // Off by default, English, the engine's default voice; no quota, the defaults of core's limits.
  await agentTab(page, "Channels");
  await expect(voice.getByLabel("Voice enabled")).not.toBeChecked();
  await expect(voice.getByLabel("Synthesis voice")).toHaveValue("");
  await expect(voice.getByLabel("Language")).toHaveValue("en");
  await expect(voice).toContainText("The embedded speech engines understand and speak English only");

  // Whether visitors can be heard here is the server's: the form says so plainly when they cannot.
  const availability = await voiceAvailability(page);
  if (availability.recognition === null) {
    await expect(voice.getByText(NO_RECOGNITION)).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await keepElementScreenshot(voice, testInfo, "voice-settings-no-recognition-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    await keepElementScreenshot(voice, testInfo, "voice-settings-no-recognition-1280");
  } else await expect(voice.getByText(NO_RECOGNITION)).toHaveCount(0);
  // The select offers the server's voices after "Default".
  const voiceOptions = await voice.getByLabel("Synthesis voice").locator("option").allTextContents();
  expect(voiceOptions.slice(1)).toEqual(availability.voices);
  const chosenVoice = availability.voices[1] ?? availability.voices[0] ?? "";

  await voice.getByLabel("Voice enabled").check();
  await voice.getByLabel("Synthesis voice").selectOption(chosenVoice);
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");

  await agentTab(page, "Limits");
  await expect(limits.getByLabel("Monthly voice minutes")).toHaveValue("");
  await expect(limits.getByLabel("Monthly voice minutes")).toHaveAttribute("placeholder", "Unlimited");
  await expect(widgetLimits.getByLabel("Voice sessions per visitor IP")).toHaveAttribute("placeholder", "Default (2)");
  await expect(widgetLimits).toContainText("1 to 120; empty = default (10).");
  await limits.getByLabel("Monthly voice minutes").fill("90");
  await widgetLimits.getByLabel("Voice sessions per visitor IP").fill("3");
  // Over core's bound: refused, with the rule under the field, and nothing saved.
  const perSession = widgetLimits.getByLabel("Minutes per voice session");
  await perSession.fill("500");
  await limitsTab.getByRole("button", { name: "Save limits" }).click();
  await expect(perSession).toHaveAttribute("aria-invalid", "true");
  await expect(widgetLimits).toContainText("Enter a whole number from 1 to 120, or leave empty for the default (10)");
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepElementScreenshot(widgetLimits, testInfo, "voice-settings-error-widget-limits-1280");

  await perSession.fill("15");
  await limitsTab.getByRole("button", { name: "Save limits" }).click();
  await expect(limitsTab.getByRole("status")).toHaveText("Limits saved.");
  await expect(perSession).not.toHaveAttribute("aria-invalid", "true");

  // Stored: a reload (on the Limits tab, kept in the address) shows every value.
  await page.reload();
  await expect(limits.getByLabel("Monthly voice minutes")).toHaveValue("90");
  await expect(widgetLimits.getByLabel("Voice sessions per visitor IP")).toHaveValue("3");
  await expect(perSession).toHaveValue("15");
  await keepElementScreenshot(limits, testInfo, "voice-settings-limits-1280");
  expect(await axeViolations(page), "limits at 1280 px").toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await keepElementScreenshot(widgetLimits, testInfo, "voice-settings-widget-limits-390");
  expect(await axeViolations(page), "limits at 390 px").toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await agentTab(page, "Channels");
  await expect(voice.getByLabel("Voice enabled")).toBeChecked();
  await expect(voice.getByLabel("Synthesis voice")).toHaveValue(chosenVoice);
  await expect(voice.getByLabel("Language")).toHaveValue("en");
  await keepElementScreenshot(voice, testInfo, "voice-settings-section-1280");
  expect(await axeViolations(page), "channels at 1280 px").toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await keepElementScreenshot(voice, testInfo, "voice-settings-section-390");
  expect(await axeViolations(page), "channels at 390 px").toEqual([]);

  // The month's usage: no minutes heard yet, against the limit just set.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/panel/usage");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `E2E voice ${suffix}` }) });
  await expect(card).toContainText("Voice minutes: 0 of 90 (0%)");
  await keepElementScreenshot(card, testInfo, "voice-usage-card-1280");

  // Turned off again, the setting is kept off.
  await page.goto(`/panel/agents/${agentId}?tab=channels`);
  await voice.getByLabel("Voice enabled").uncheck();
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");
  await page.reload();
  await expect(voice.getByLabel("Voice enabled")).not.toBeChecked();
  await agentTab(page, "Limits");
  await expect(limits.getByLabel("Monthly voice minutes")).toHaveValue("90");
});
