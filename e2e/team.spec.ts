// The team: the owner invites a Support person and copies the one-time link; the person accepts it
// in a fresh browser, is signed in, sees the inbox and nothing else in the navigation, and a page
// of another role (agents) shows the no-access state. A used link then shows a clear page. The
// people, invitation and account pages pass axe-core, at desktop width and 390 px.
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { keepScreenshot, signIn, uniqueSuffix } from "./support.ts";

const PHONE = { width: 390, height: 844 };

/** axe-core's violations of serious or critical impact (e2e/axe.ts runs the rules). */
async function seriousViolations(page: Page) {
  const violations = await axeViolations(page);
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(({ rule, help, targets }) => ({ rule, help, targets }));
}

/** Screenshots at desktop width and 390 px, and axe-core at both. */
async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepScreenshot(page, testInfo, `${name}-desktop`);
  expect(await seriousViolations(page), `${name} at desktop width`).toEqual([]);
  await page.setViewportSize(PHONE);
  await keepScreenshot(page, testInfo, `${name}-390`);
  expect(await seriousViolations(page), `${name} at 390 px`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the owner invites a Support person, who joins through the link and sees only the inbox", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const email = `support-${uniqueSuffix()}@example.com`;

  // The owner invites from the People page and copies the link from the one-time dialog.
  await signIn(page);
  const nav = page.getByRole("navigation", { name: "Panel" });
  await nav.getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  const invite = page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Email").fill(email);
  await invite.getByLabel("Role").selectOption("support");
  await invite.getByRole("button", { name: "Create invitation" }).click();
  const dialog = page.getByRole("dialog", { name: "Invitation link" });
  const linkField = dialog.getByLabel("Invitation link");
  await expect(linkField).toHaveValue(/\/invite\/[A-Za-z0-9_-]{43}$/);
  const link = await linkField.inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  const invitation = page.getByTestId("invitation").filter({ hasText: email });
  await expect(invitation).toContainText("Support");
  await expect(page.getByRole("main")).not.toContainText(link);
  await checkScreen(page, testInfo, "team-people");

  // A fresh browser: the person accepts, choosing a name and a password, and lands in the inbox.
  const context = await browser.newContext({ baseURL });
  const person = await context.newPage();
  try {
    await person.goto(new URL(link).pathname);
    await expect(person.getByRole("heading", { level: 1 })).toHaveText(/^Join /);
    await expect(person.getByText("You are invited as a support agent.", { exact: false })).toBeVisible();
    await expect(person.getByLabel("Email")).toHaveValue(email);
    await checkScreen(person, testInfo, "team-invite-accept");
    await person.getByLabel("Your name").fill("Sam Support");
    await person.getByLabel("Choose a password").fill("short");
    await person.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(person.getByText("Use at least 8 characters")).toBeVisible();
    await person.getByLabel("Choose a password").fill("support-password-1");
    await person.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(person).toHaveURL(/\/panel\/conversations$/);

    // The inbox and nothing else in the navigation.
    const personNav = person.getByRole("navigation", { name: "Panel" });
    // The inbox's link and its Mine and Unassigned queues.
    await expect(personNav.getByRole("link")).toHaveText([/^Conversations/, /^Mine/, /^Unassigned/]);
    await expect(person.getByRole("heading", { level: 1, name: "Conversations" })).toBeVisible();

    // A page of another role: a clear no-access state, not a crash.
    await person.goto("/panel/agents");
    await expect(person.getByRole("heading", { level: 1, name: "You do not have access to this page" })).toBeVisible();
    await expect(person.getByRole("link", { name: "Go to your start page" })).toHaveAttribute("href", "/panel/conversations");
    await keepScreenshot(person, testInfo, "team-no-access");

    // The person's own account: name, role and this browser's session.
    await person.getByRole("banner").getByRole("link", { name: "Account" }).click();
    await expect(person.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    await expect(person.getByRole("region", { name: "You", exact: true })).toContainText("Support");
    await expect(person.getByTestId("session")).toHaveCount(1);
    await expect(person.getByTestId("session")).toContainText("This browser");
    await checkScreen(person, testInfo, "team-account");

    // The link worked once: opened again, it says so without telling why.
    await person.goto(new URL(link).pathname);
    await expect(person.getByRole("heading", { level: 1, name: "This invitation cannot be used" })).toBeVisible();
    await expect(person.getByRole("main").getByRole("alert")).toHaveText(
      "This invitation link is not valid: it may have expired or been used already. Ask for a new invitation.",
    );
  } finally {
    await context.close();
  }

  // The owner sees the new person, active, with the Support role.
  await page.reload();
  const row = page.getByTestId("person").filter({ hasText: email });
  await expect(row).toContainText("Sam Support");
  await expect(row.getByLabel("Role")).toHaveValue("support");
});
