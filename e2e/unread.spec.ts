// The assignee learns that work waits for them: the owner invites a Support teammate; a visitor
// writes in the widget; the owner assigns the conversation to the teammate. The teammate's open
// inbox, without a reload, shows the row bold with an "Unread" dot, Mine's count in the navigation,
// the title "(1) …" and an in-page alert (the browser was never asked for notifications). Opening
// the conversation clears the dot, the count and the title's prefix; the visitor's next message
// brings them back with a "New message" alert. Screenshots at 1280 and 390 px.
import { visitorTag } from "@parley/core/browser";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";
import { openConversation } from "./workspace.ts";

const PHONE = { width: 390, height: 844 };

/** The viewport as the person sees it (the toast is fixed to its corner). */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  await keepScreenshot(page, testInfo, name, { fullPage: false });
}

function mineCount(page: Page) {
  return page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: /^Mine/ });
}

test("the assignee sees the unread dot, Mine's count, the title's count and an alert; opening the conversation clears them", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const email = `assignee-${suffix}@example.com`;
  const name = `Sam Unread ${suffix}`;

  // The owner invites a Support teammate, who joins in a fresh browser.
  await signIn(page);
  await page.goto("/panel/people");
  const invite = page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Email").fill(email);
  await invite.getByLabel("Role").selectOption("support");
  await invite.getByRole("button", { name: "Create invitation" }).click();
  const dialog = page.getByRole("dialog", { name: "Invitation link" });
  const link = await dialog.getByLabel("Invitation link").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();

  const context = await browser.newContext({ baseURL });
  const sam = await context.newPage();
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    await sam.goto(new URL(link).pathname);
    await sam.getByLabel("Your name").fill(name);
    await sam.getByLabel("Choose a password").fill("support-password-1");
    const countsRead = sam.waitForResponse((response) => response.url().includes("conversations.counts"));
    await sam.getByRole("button", { name: "Create account and sign in" }).click();
    await expect(sam).toHaveURL(/\/panel\/conversations$/);
    await countsRead;
    await expect(sam.getByText("Loading conversations…")).toBeHidden();
    // Nothing is Sam's yet: no count, no prefix.
    await expect(mineCount(sam)).toHaveText("Mine");
    await expect(sam).toHaveTitle(/^Conversations/);

    // A visitor writes in the widget (the agent answers; nobody is asked for).
    const site = visitor.page;
    await site.getByRole("button", { name: "Open chat" }).click();
    const chat = site.getByRole("dialog", { name: "Chat with us" });
    const input = chat.getByLabel("Your message");
    await input.fill(`Where do I find my invoices? ${suffix}`);
    await input.press("Enter");
    const log = chat.getByRole("log", { name: "Conversation" });
    await expect(log.locator(".msg.agent").first()).toBeVisible();
    const conversationId = await site.evaluate(
      () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
    );

    // The owner assigns it to Sam.
    await page.goto(`/panel/conversations/${conversationId}`);
    const conversation = openConversation(page);
    await conversation.handling.getByLabel("Assigned to").selectOption({ label: name });
    await expect(conversation.status).toHaveText("Assignment saved.");
    // The owner leaves it (an open conversation stays read for whoever has it open).
    await page.goto("/panel/conversations");

    // Sam's open inbox, live: the alert, the bold row with its dot, Mine's count, the title.
    const identity = `Visitor ${visitorTag(conversationId)} on ${new URL(baseURL ?? "http://localhost").host}/help/demo`;
    const alerts = sam.getByRole("status", { name: "Alerts" });
    await expect(alerts.getByRole("link", { name: `Assigned to you: ${identity}` })).toBeVisible({ timeout: 8_000 });
    const row = sam.locator(`li:has(a[href="/panel/conversations/${conversationId}"])`);
    await expect(row.getByRole("img", { name: "Unread" })).toBeVisible();
    await expect(row).toHaveClass(/inbox-item-unread/);
    await expect(row.getByRole("link", { name: identity })).toHaveCSS("font-weight", "700");
    await expect(mineCount(sam)).toHaveText(/^Mine\s*1 unread, assigned to you$/);
    await expect(sam).toHaveTitle(/^\(1\) Conversations · Parley panel$/);

    await sam.setViewportSize({ width: 1280, height: 800 });
    await shoot(sam, testInfo, "unread-inbox-toast-1280");
    await sam.setViewportSize(PHONE);
    await shoot(sam, testInfo, "unread-inbox-toast-390");
    await sam.setViewportSize({ width: 1280, height: 800 });

    // The toast can be dismissed.
    await alerts.getByRole("button", { name: `Dismiss the alert about ${identity}` }).click();
    await expect(alerts.getByRole("link")).toHaveCount(0);

    // Opening it reads it: back in the list, no dot, no count, no prefix.
    await row.getByRole("link", { name: identity }).click();
    await expect(sam.getByRole("heading", { level: 1, name: identity })).toBeVisible();
    await expect(mineCount(sam)).toHaveText("Mine", { timeout: 8_000 });
    await expect(sam).toHaveTitle(/^[^(]/);
    await sam
      .getByRole("navigation", { name: "Panel" })
      .getByRole("link", { name: /^Conversations/ })
      .click();
    await expect(row.getByRole("link", { name: identity })).toBeVisible();
    await expect(row.getByRole("img", { name: "Unread" })).toHaveCount(0);
    await expect(row).not.toHaveClass(/inbox-item-unread/);
    await expect(sam).toHaveTitle(/^Conversations · Parley panel$/);

    // The visitor writes again: unread again, with a "New message" alert. Also for the owner, who
    // opened it before that message (each person's own state), live in their list.
    await input.fill(`And the one from March? ${suffix}`);
    await input.press("Enter");
    await expect(alerts.getByRole("link", { name: `New message from ${identity}` })).toBeVisible({ timeout: 8_000 });
    await expect(row.getByRole("img", { name: "Unread" })).toBeVisible();
    await expect(mineCount(sam)).toHaveText(/^Mine\s*1 unread, assigned to you$/);
    await expect(sam).toHaveTitle(/^\(1\) /);
    await expect(
      page.locator(`li:has(a[href="/panel/conversations/${conversationId}"])`).getByRole("img", { name: "Unread" }),
    ).toBeVisible();
  } finally {
    await visitor.close();
    await context.close();
  }
});
