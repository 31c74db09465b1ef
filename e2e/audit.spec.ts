// The audit log: the owner rotates an agent's key, opens Audit log from the navigation, sees the
// change in words with their email and IP (never the key), filters to it by person and action, and
// a filter matching nothing shows the empty state. The page passes axe-core at desktop and 390 px.
import { expect, type Page, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { closeNewKeyDialog, E2E_ADMIN, keepScreenshot, openAgents, openNewKeyDialog, signIn, uniqueSuffix } from "./support.ts";

async function seriousViolations(page: Page) {
  const violations = await axeViolations(page);
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(({ rule, targets }) => ({ rule, targets }));
}

test("the owner rotates a key and finds it in the audit log, filtered to them", async ({ page }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentName = `E2E audit agent ${suffix}`;
  await signIn(page);
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(agentName);
  await createForm.getByLabel("Agent ID (optional)").fill(`e2e-audit-${suffix}`);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByRole("heading", { level: 1, name: agentName })).toBeVisible();
  const first = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, first.key);
  const rotated = await openNewKeyDialog(page);
  expect(rotated.rotated).toBe(true);
  await closeNewKeyDialog(page, rotated.key);

  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const row = page.getByTestId("audit-event").filter({ hasText: `Rotated the HTTP API key of ${agentName}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(E2E_ADMIN.email);
  await expect(row).toContainText("just now");
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^[0-9a-f.:]+$/);
  await expect(page.getByRole("main")).not.toContainText(rotated.key);
  // Newest first: the rotation comes before the key's first generation.
  await expect(page.getByTestId("audit-event").first()).toContainText(`Rotated the HTTP API key of ${agentName}`);

  const filters = page.getByRole("form", { name: "Filter the audit log" });
  await filters.getByLabel("Who").selectOption({ label: E2E_ADMIN.email });
  await filters.getByLabel("Action").selectOption({ label: "Key rotated" });
  await expect(page.getByTestId("audit-event").first()).toContainText(`Rotated the HTTP API key of ${agentName}`);
  await expect(page.getByTestId("audit-event").filter({ hasNotText: "Rotated the HTTP API key" })).toHaveCount(0);
  await keepScreenshot(page, testInfo, "audit-desktop");
  expect(await seriousViolations(page), "audit log at desktop width").toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "audit-390");
  expect(await seriousViolations(page), "audit log at 390 px").toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  await filters.getByLabel("From").fill("2001-01-01");
  await filters.getByLabel("To").fill("2001-01-02");
  await expect(page.getByText("No changes match these filters.")).toBeVisible();
  await keepScreenshot(page, testInfo, "audit-empty");
  await filters.getByRole("button", { name: "Clear filters" }).click();
  await expect(row).toHaveCount(1);
});
