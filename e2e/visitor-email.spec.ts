// Reaching the visitor by email, end to end. The suite's own server sends no email (no SMTP_URL,
// so its widget never asks); this file starts a second server of the same build, on its own port
// and data folder, with SMTP_URL pointing at an SMTP server in this test process. A visitor asks
// the help centre's widget for a person; the widget asks for an email address (a wrong one is
// refused in place), the visitor leaves one and closes the page. An admin replies from the panel,
// where the visitor is named by that address; after the batch window the SMTP server receives one
// mail with the reply and a resume link, and opening the link shows the same conversation with
// the reply in the widget. Screenshots of the widget's prompt and the panel's conversation at 1280 and 390 px.
import { expect, test } from "@playwright/test";
import { decodedMail as decoded, type Mail, type ServerWithMail, startServerWithMail } from "./mail-server.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { keepScreenshot, openWidgetChat } from "./support.ts";
import { openConversation } from "./workspace.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const EMAIL = "ada.visitor@example.com";
const REPLY = "Hi Ada, this is the team: your refund <b>went out</b> today.";

/** This file's server: five ports past the suite's (password-reset.spec.ts takes three past it). */
let server: ServerWithMail;
let BASE = "";
let mails: Mail[] = [];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // Replies gathered for 5 s instead of the default 2 minutes (batching itself: visitor-email.test.ts).
  server = await startServerWithMail(5, { VISITOR_MAIL_DELAY_SECONDS: "5" });
  ({ base: BASE, mails } = server);
});

test.afterAll(async () => {
  await server?.stop();
});

test("a visitor who leaves an email gets the team's reply by mail, and its link resumes the conversation", async ({
  browser,
}, testInfo) => {
  // The reply waits for the batch window (5 s on this server) and the next run of the mail task.
  test.setTimeout(300_000);
  const visitorContext = await browser.newContext({ baseURL: BASE, viewport: DESKTOP });
  const site = await visitorContext.newPage();
  await site.goto("/help/demo");
  const { input, log } = await openWidgetChat(site);
  await input.fill("I want to talk to a human");
  await input.press("Enter");
  await expect(log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();

  // The handoff asks for an address: optional, checked before it is sent.
  const prompt = log.locator("li.email");
  await expect(prompt).toContainText("Leave your email and we’ll send the reply there if you’re away. (optional)");
  await keepScreenshot(site, testInfo, "visitor-email-prompt-1280", { fullPage: false });
  await site.setViewportSize(PHONE);
  await keepScreenshot(site, testInfo, "visitor-email-prompt-390", { fullPage: false });
  await site.setViewportSize(DESKTOP);
  await prompt.getByLabel("Email address").fill("ada at example");
  await prompt.getByRole("button", { name: "Save email" }).click();
  await expect(prompt.getByRole("alert")).toHaveText("Enter an email address like name@example.com.");
  await prompt.getByLabel("Email address").fill(EMAIL);
  await prompt.getByRole("button", { name: "Save email" }).click();
  await expect(prompt.getByRole("status")).toHaveText(`Thanks! If you’re away, we’ll email replies to ${EMAIL}.`);
  // The transcript by mail, once an address is given.
  await prompt.getByRole("button", { name: "Email me the transcript" }).click();
  await expect(log.getByRole("listitem").filter({ hasText: `We sent the transcript to ${EMAIL}.` })).toBeVisible();
  await expect.poll(() => mails.filter((mail) => mail.to.includes(EMAIL)).length, { timeout: 20_000 }).toBe(1);
  const transcript = decoded(mails[0]?.raw ?? "");
  expect(transcript).toContain("Subject: Your conversation with");
  expect(transcript).toContain("I want to talk to a human");
  const conversationId = await site.evaluate(
    () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
  );
  // The visitor leaves: their widget's socket closes with the page.
  await visitorContext.close();

  // The admin replies from the panel, where the visitor is named by their address.
  const adminContext = await browser.newContext({ baseURL: BASE, viewport: DESKTOP });
  const page = await adminContext.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/panel$/);
  await page.goto(`/panel/conversations/${conversationId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(EMAIL);
  const conversation = openConversation(page);
  await conversation.reply.getByLabel("Your reply").fill(REPLY);
  await conversation.reply.getByRole("button", { name: "Send reply" }).click();
  await expect(conversation.status).toHaveText("Reply sent.");
  await page.evaluate(() => window.scrollTo(0, 0));
  await keepScreenshot(page, testInfo, "visitor-email-conversation-1280", { fullPage: false });
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  await keepScreenshot(page, testInfo, "visitor-email-conversation-390", { fullPage: false });
  await adminContext.close();

  // One mail, after the batch window: the reply (escaped in its HTML part) and the resume link.
  await expect.poll(() => mails.filter((mail) => mail.to.includes(EMAIL)).length, { timeout: 60_000, intervals: [1_000] }).toBe(2);
  const body = decoded(mails[1]?.raw ?? "");
  expect(body).toContain("Subject: New reply from");
  expect(body).toContain(REPLY);
  expect(body).toContain("your refund &lt;b&gt;went out&lt;/b&gt; today.");
  const link = new RegExp(`Continue the conversation: (${BASE}/help/demo#parley-resume=[A-Za-z0-9_.-]+)`).exec(body)?.[1];
  expect(link, "the resume link in the mail").toBeDefined();

  // The link opens the help centre with the chat open on the same conversation, the reply in it.
  const back = await browser.newContext({ viewport: DESKTOP });
  const resumed = await back.newPage();
  await resumed.goto(link as string);
  const again = resumed.getByRole("dialog", { name: "Chat with us" });
  await expect(again).toBeVisible();
  // (The widget shows the reply's Markdown rendered and sanitised: the tag is gone, its words stay.)
  await expect(again.getByRole("log", { name: "Conversation" })).toContainText("Hi Ada, this is the team: your refund went out today.");
  await expect(again.getByRole("log", { name: "Conversation" })).toContainText("I want to talk to a human");
  // The token left the address bar.
  await expect.poll(() => resumed.evaluate(() => location.hash)).toBe("");
  expect(
    await resumed.evaluate(
      () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
    ),
  ).toBe(conversationId);
  await back.close();
});
