// "Forgot password?" end to end. The suite's own server sends no email (no SMTP_URL), so it shows
// no such link; this file starts a second server of the same build, on its own port and data
// folder, with SMTP_URL pointing at an SMTP server in this test process (so the other journeys keep
// a server without email). There the admin, signed in in one browser, asks for a link in another
// (an unknown address gets the same words), reads the email, follows the link, sets a new password
// and is signed in; the first browser's session has ended, the link works once. The account page
// then names the sessions by browser and place, marks this one, and "Sign out everywhere else"
// ends the other. Sign-in, forgot, reset and account pages at 1280 and 390 px pass axe-core.
import { type Browser, expect, type Page, type TestInfo, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { type Mail, type ServerWithMail, startServerWithMail } from "./mail-server.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { keepScreenshot } from "./support.ts";

const PHONE = { width: 390, height: 844 };
const SAME_ANSWER =
  "If an account uses this address, we have emailed it a link to choose a new password. The link works once, within 60 minutes.";
const NEW_PASSWORD = "e2e-new-password-after-reset";

/** This file's server: three ports past the suite's (the next one is the fake LLM's). */
let server: ServerWithMail;
let BASE = "";
let mails: Mail[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startServerWithMail(3);
  ({ base: BASE, mails } = server);
});

test.afterAll(async () => {
  await server?.stop();
});

/** Screenshots at 1280 and 390 px, and no serious axe-core violation at either. */
async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  for (const [label, size] of [
    ["1280", { width: 1280, height: 900 }],
    ["390", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await keepScreenshot(page, testInfo, `${name}-${label}`);
    const serious = (await axeViolations(page)).filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(
      serious.map(({ rule, targets }) => ({ rule, targets })),
      `${name} at ${label} px`,
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function signInAt(browser: Browser, password: string) {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/panel$/);
  return { context, page };
}

/** The reset link of the newest email to `to`, unfolded from its quoted-printable body. */
async function resetLinkFor(to: string): Promise<string> {
  await expect.poll(() => mails.filter((mail) => mail.to.includes(to)).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const mail = mails.filter((item) => item.to.includes(to)).at(-1)!;
  const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  expect(body).toContain("Subject: Reset your Parley password");
  expect(body).toContain("expires in 60 minutes");
  const link = body.match(/http:\/\/localhost:\d+\/reset-password\/[A-Za-z0-9_-]{43}/)?.[0];
  expect(link, "the reset link in the email").toBeDefined();
  return link!;
}

test("without SMTP the sign-in page offers no reset, and there is no reset page", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveCount(0);
  expect((await page.goto("/forgot-password"))?.status()).toBe(404);
});

test("a forgotten password: the emailed link sets a new one once, and every other session ends", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  // Signed in somewhere else before forgetting.
  const before = await signInAt(browser, E2E_ADMIN.password);

  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  try {
    await page.goto("/signin");
    await expect(page.getByRole("link", { name: "Forgot password?" })).toBeVisible();
    await checkScreen(page, testInfo, "reset-signin");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Forgot password" })).toBeVisible();
    await checkScreen(page, testInfo, "reset-forgot");

    // An address without an account: the same words, and no email.
    await page.getByLabel("Email").fill("nobody-here@example.com");
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await expect(page.getByRole("status")).toHaveText(SAME_ANSWER);
    await checkScreen(page, testInfo, "reset-forgot-sent");

    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(E2E_ADMIN.email.toUpperCase());
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await expect(page.getByRole("status")).toHaveText(SAME_ANSWER);
    const link = await resetLinkFor(E2E_ADMIN.email);
    expect(mails.some((mail) => mail.to.includes("nobody-here@example.com"))).toBe(false);

    await page.goto(new URL(link).pathname);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(E2E_ADMIN.email);
    await checkScreen(page, testInfo, "reset-choose");
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set new password and sign in" }).click();
    await expect(page.getByText("Use at least 8 characters")).toBeVisible();
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password and sign in" }).click();
    await expect(page).toHaveURL(/\/panel$/);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

    // The session from before has ended; the old password no longer works.
    await before.page.goto("/panel/agents");
    await expect(before.page).toHaveURL(/\/signin/);
    await before.page.getByLabel("Email").fill(E2E_ADMIN.email);
    await before.page.getByLabel("Password").fill(E2E_ADMIN.password);
    await before.page.getByRole("button", { name: "Sign in" }).click();
    await expect(before.page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();

    // The link worked once.
    const again = await context.newPage();
    await again.goto(new URL(link).pathname);
    await expect(again.getByRole("heading", { level: 1, name: "This link cannot be used" })).toBeVisible();
    await expect(again.getByRole("main").getByRole("alert")).toHaveText(
      "This password reset link is not valid: it may have expired or been used already. Ask for a new link from the sign-in page.",
    );
    await checkScreen(again, testInfo, "reset-used");
    await again.close();

    // Signed in with the new password in the other browser: two sessions, named and this one marked.
    await before.page.getByLabel("Password").fill(NEW_PASSWORD);
    await before.page.getByRole("button", { name: "Sign in" }).click();
    await expect(before.page).toHaveURL(/\/panel$/);

    await page.goto("/panel/account");
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    const sessions = page.getByTestId("session");
    await expect(sessions).toHaveCount(2);
    for (const session of await sessions.all()) {
      await expect(session).toContainText(/^Chrome on Linux, (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1), just now/);
    }
    await expect(sessions.filter({ hasText: "This browser" })).toHaveCount(1);
    await checkScreen(page, testInfo, "reset-account");

    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(page.getByText("Signed out everywhere else: 1 session ended.")).toBeVisible();
    await expect(sessions).toHaveCount(1);
    await expect(sessions).toContainText("This browser");
    await checkScreen(page, testInfo, "reset-account-after");
    await before.page.goto("/panel/agents");
    await expect(before.page).toHaveURL(/\/signin/);
    // This browser goes on.
    await page.goto("/panel/agents");
    await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  } finally {
    await context.close();
    await before.context.close();
  }
});
