// What each role is shown: a Support teammate finds no export, no visitor-data card and no link to
// the agent's settings on the inbox pages they open; an admin demoted to Support while the inbox is
// open gets core's readable refusal where they clicked Export, never a silent 403. Screenshots at
// 1280 and 390 px.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";
import { openConversation } from "./workspace.ts";

const PHONE = { width: 390, height: 844 };
const EXPORT_REFUSAL =
  "Your role does not allow exporting conversations: only owners and admins may. An owner of the workspace can change your role.";

/** The owner invites `email` with a role from the People page and returns the one-time link. */
async function invite(owner: Page, email: string, role: "admin" | "editor" | "support"): Promise<string> {
  await owner.goto("/panel/people");
  const form = owner.getByRole("region", { name: "Invite a person" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Create invitation" }).click();
  const dialog = owner.getByRole("dialog", { name: "Invitation link" });
  const link = await dialog.getByLabel("Invitation link").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();
  return link;
}

/** The invited person joins in a browser of their own and lands on their start page. */
async function join(browser: Browser, baseURL: string | undefined, link: string, name: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Choose a password").fill("role-actions-password-1");
  await page.getByRole("button", { name: "Create account and sign in" }).click();
  await expect(page).toHaveURL(/\/panel/);
  return { page, close: () => context.close() };
}

/** A visitor's conversation in the demo help centre's widget, so the inbox has one to open. */
async function visitorConversation(browser: Browser, baseURL: string | undefined, text: string) {
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    await visitor.page.getByRole("button", { name: "Open chat" }).click();
    const chat = visitor.page.getByRole("dialog", { name: "Chat with us" });
    await chat.getByLabel("Your message").fill(text);
    await chat.getByLabel("Your message").press("Enter");
    await expect(chat.getByRole("log", { name: "Conversation" }).getByText(text)).toBeVisible();
    await expect(chat.getByRole("log", { name: "Conversation" })).toContainText(/I don't know|found/);
  } finally {
    await visitor.close();
  }
}

async function bothWidths(page: Page, testInfo: Parameters<typeof keepScreenshot>[1], name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepScreenshot(page, testInfo, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await keepScreenshot(page, testInfo, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a Support teammate is not shown the export, the visitor's data or the agent's settings", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const question = `Where is parcel ${suffix}?`;
  await visitorConversation(browser, baseURL, question);
  await signIn(page);
  // The owner sees every action of the inbox.
  await page.goto("/panel/conversations");
  await expect(page.getByRole("main").getByText("Export all:")).toBeVisible();
  await expect(page.getByRole("link", { name: "CSV" })).toBeVisible();

  const link = await invite(page, `support-actions-${suffix}@example.com`, "support");
  const support = await join(browser, baseURL, link, "Sam Support");
  try {
    const inbox = support.page;
    await expect(inbox.getByRole("heading", { level: 1, name: "Conversations" })).toBeVisible();
    const main = inbox.getByRole("main");
    await expect(main.getByRole("link", { name: "Saved replies" })).toBeVisible();
    await expect(main.getByText(/Export (all|these)/)).toHaveCount(0);
    await expect(main.getByRole("link", { name: "CSV" })).toHaveCount(0);
    await expect(main.getByRole("link", { name: "JSON" })).toHaveCount(0);
    await bothWidths(inbox, testInfo, "role-support-inbox");

    await inbox.goto(`/panel/conversations?q=${suffix}`);
    await inbox.getByRole("list", { name: "Conversations" }).getByRole("link").first().click();
    const conversation = openConversation(inbox);
    await expect(conversation.transcript.getByText(question, { exact: true })).toBeVisible();
    // The agent is named, not linked (its settings are not theirs); no export or erasure of the visitor's data.
    await expect(conversation.handling).toContainText("Acme Cloud help assistant");
    await expect(main.getByRole("link", { name: "Acme Cloud help assistant" })).toHaveCount(0);
    await expect(main.getByRole("heading", { name: "Visitor's data" })).toHaveCount(0);
    await expect(main.getByText(/^Export /)).toHaveCount(0);
    await expect(main.getByRole("button", { name: /Take over|Resolve|Assign/ }).first()).toBeVisible();
    await bothWidths(inbox, testInfo, "role-support-conversation");
  } finally {
    await support.close();
  }
});

test("an admin demoted while the inbox is open is told why the export is refused, in place", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const email = `admin-actions-${suffix}@example.com`;
  await signIn(page);
  const link = await invite(page, email, "admin");
  const admin = await join(browser, baseURL, link, "Ada Admin");
  try {
    await admin.page.goto("/panel/conversations");
    const exportCsv = admin.page.getByRole("main").getByRole("link", { name: "CSV" });
    await expect(exportCsv).toBeVisible();

    // Meanwhile the owner makes them Support.
    await page.goto("/panel/people");
    const row = page.getByTestId("person").filter({ hasText: email });
    const changed = page.waitForResponse((response) => response.url().includes("people.setRole") && response.ok());
    await row.getByLabel("Role").selectOption("support");
    await changed;

    let downloaded = false;
    admin.page.on("download", () => {
      downloaded = true;
    });
    await exportCsv.click();
    const refusal = admin.page.getByRole("main").getByRole("alert").filter({ hasText: "Your role does not allow" });
    await expect(refusal).toHaveText(EXPORT_REFUSAL);
    await expect(admin.page.getByRole("main").getByRole("link", { name: "CSV" })).toHaveCount(0);
    expect(downloaded).toBe(false);
    await bothWidths(admin.page, testInfo, "role-refusal-export");
  } finally {
    await admin.close();
  }
});
