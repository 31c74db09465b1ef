// A support day, end to end, on a server of its own that sends email (an SMTP server in this test
// process keeps every mail). A visitor asks the help centre's widget how to reset a password (the
// steps come back as a numbered list), asks for a person and leaves an email address, then leaves.
// The owner assigns the conversation to a Support teammate, whose open inbox shows, without a
// reload, an alert, the unread dot and the title's count. The teammate opens it in the workspace
// (list, conversation, details side by side; two screens on a phone), takes it over (the cursor
// lands in the composer pinned under the transcript) and sends with Ctrl+Enter; the reply reaches
// the visitor's email, whose link brings them back to the conversation, resolved, to rate it; the
// rating shows in the panel at once. axe-core finds no violation in the widget, the inbox list and
// the conversation at 1280 and 390 px; the screenshots are kept for a person to look at.
import { visitorTag } from "@parley/core/browser";
import { type Browser, expect, type Page, type TestInfo, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { decodedMail, type Mail, type ServerWithMail, startServerWithMail } from "./mail-server.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { keepScreenshot, openWidgetChat } from "./support.ts";
import { inboxRow, openConversation } from "./workspace.ts";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const VISITOR_EMAIL = "maya.visitor@example.com";
/** The help centre's agent (the demo data's). */
const AGENT_NAME = "Acme Cloud help assistant";
const TEAMMATE = { email: "sam.support@example.com", name: "Sam Support", password: "support-day-password-1" };
const REPLY = "Hi Maya, Sam here. I reset the sign-in link for you: try the steps again now.";
const STEPS_FIRST = "Go to the sign-in page at app.acmecloud.example/login.";

/** This file's server: seven ports past the suite's (password reset takes three, visitor email five). */
let server: ServerWithMail;
let mails: Mail[] = [];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // Replies to a visitor who left are gathered for 5 s instead of two minutes.
  server = await startServerWithMail(7, { VISITOR_MAIL_DELAY_SECONDS: "5" });
  mails = server.mails;
});

test.afterAll(async () => {
  await server?.stop();
});

async function signInAs(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ baseURL: server.base, viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/panel/);
  return { page, close: () => context.close() };
}

/** The page at both widths: a screenshot of what the person sees, and axe's verdict. */
async function checkBothWidths(page: Page, testInfo: TestInfo, name: string, prepare?: () => Promise<void>) {
  const found: Record<string, unknown> = {};
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await prepare?.();
    await keepScreenshot(page, testInfo, `support-day-${name}-${width}`, { fullPage: false });
    found[`${name} at ${width} px`] = await axeViolations(page);
  }
  await page.setViewportSize(DESKTOP);
  return found;
}

test("a visitor hands off and leaves an email; the assignee is alerted, replies from the pinned composer, and the visitor rates it", async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const violations: Record<string, unknown> = {};

  // The owner invites a Support teammate, who joins and lands in the inbox.
  const owner = await signInAs(browser, E2E_ADMIN.email, E2E_ADMIN.password);
  await owner.page.goto("/panel/people");
  const invite = owner.page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Email").fill(TEAMMATE.email);
  await invite.getByLabel("Role").selectOption("support");
  await invite.getByRole("button", { name: "Create invitation" }).click();
  const dialog = owner.page.getByRole("dialog", { name: "Invitation link" });
  const link = await dialog.getByLabel("Invitation link").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();

  const samContext = await browser.newContext({ baseURL: server.base, viewport: DESKTOP });
  const sam = await samContext.newPage();
  await sam.goto(new URL(link).pathname);
  await sam.getByLabel("Your name").fill(TEAMMATE.name);
  await sam.getByLabel("Choose a password").fill(TEAMMATE.password);
  await sam.getByRole("button", { name: "Create account and sign in" }).click();
  await expect(sam).toHaveURL(/\/panel\/conversations$/);
  await expect(sam.getByText("Select a conversation")).toBeVisible();
  await expect(sam).toHaveTitle(/^Conversations · Parley panel$/);

  // One Alerts menu: it says what alerts Sam and how; Sam also asks for every new escalation (kept in this browser).
  const alertsMenu = sam.locator("details.alerts-menu");
  await alertsMenu.getByText("Alerts", { exact: true }).click();
  await expect(alertsMenu).toContainText("You get an alert when a conversation is assigned to you or its visitor writes again.");
  await alertsMenu.getByLabel("Also alert me to every new escalation").check();
  await keepScreenshot(sam, testInfo, "support-day-alerts-menu-1280", { fullPage: false });
  await sam.keyboard.press("Escape");
  await expect(alertsMenu.getByLabel("Also alert me to every new escalation")).toBeHidden();
  await sam.reload();
  await alertsMenu.getByText("Alerts", { exact: true }).click();
  await expect(alertsMenu.getByLabel("Also alert me to every new escalation")).toBeChecked();
  await expect(alertsMenu.getByLabel("Play a sound with alerts")).not.toBeChecked();
  await sam.keyboard.press("Escape");

  // The visitor asks how to reset a password: the article's steps, as a numbered list.
  const visitorContext = await browser.newContext({ baseURL: server.base, viewport: DESKTOP });
  const site = await visitorContext.newPage();
  await site.goto("/help/demo");
  const { chat, input, log } = await openWidgetChat(site);
  await input.fill("How do I reset my password?");
  await input.press("Enter");
  // (The log's entries are a list themselves: the steps are the list inside an entry.)
  const steps = log.locator("li ol").filter({ hasText: STEPS_FIRST });
  await expect(steps).toHaveCount(1);
  await expect(steps.getByRole("listitem")).toHaveCount(5);

  // They ask for a person and leave their email address.
  await input.fill("I want to talk to a human");
  await input.press("Enter");
  await expect(log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();
  // Sam asked for escalations: an alert at once (this browser was never asked for notifications, so a toast).
  const alerts = sam.getByRole("status", { name: "Alerts" });
  await expect(alerts.getByRole("link", { name: "A visitor is waiting for a person" })).toBeVisible({ timeout: 10_000 });
  const conversationId = await site.evaluate(
    () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
  );
  // The owner has it open: the browser tab names the visitor (by their page, so far) and the agent.
  await owner.page.goto(`/panel/conversations/${conversationId}`);
  await expect(owner.page).toHaveTitle(
    `Visitor ${visitorTag(conversationId)} on ${new URL(server.base).host}/help/demo · ${AGENT_NAME} · Parley panel`,
  );
  const prompt = log.locator("li.email");
  await prompt.getByLabel("Email address").fill(VISITOR_EMAIL);
  await prompt.getByRole("button", { name: "Save email" }).click();
  await expect(prompt.getByRole("status")).toHaveText(`Thanks! If you’re away, we’ll email replies to ${VISITOR_EMAIL}.`);
  // The tab follows, live, as the visitor gives their email.
  await expect(owner.page).toHaveTitle(`${VISITOR_EMAIL} · ${AGENT_NAME} · Parley panel`);
  Object.assign(violations, await checkBothWidths(site, testInfo, "widget", () => prompt.scrollIntoViewIfNeeded()));
  await expect(chat).toBeVisible();
  // The visitor leaves: their widget's socket closes with the page.
  await visitorContext.close();

  // The owner assigns the conversation to Sam from the workspace.
  const ownerView = openConversation(owner.page);
  await ownerView.handling.getByLabel("Assigned to").selectOption({ label: TEAMMATE.name });
  await expect(ownerView.status).toHaveText("Assignment saved.");
  await owner.page.goto("/panel/conversations");

  // Sam's open inbox, live: the alert (it replaces the escalation's), the unread dot on the row, the title's count.
  await expect(alerts.getByRole("link", { name: `Assigned to you: ${VISITOR_EMAIL}` })).toBeVisible({ timeout: 10_000 });
  const row = inboxRow(sam, conversationId);
  await expect(row.getByRole("img", { name: "Unread" })).toBeVisible();
  // The row cuts a long name short; hovering shows it whole.
  await expect(row.getByRole("link", { name: VISITOR_EMAIL })).toHaveAttribute("title", VISITOR_EMAIL);
  await expect(row).toContainText("Escalated");
  await expect(sam).toHaveTitle(/^\(1\) Conversations · Parley panel$/);
  await expect(alerts.getByRole("link", { name: "A visitor is waiting for a person" })).toHaveCount(0);
  Object.assign(violations, await checkBothWidths(sam, testInfo, "inbox-alert"));
  await alerts.getByRole("button", { name: `Dismiss the alert about ${VISITOR_EMAIL}` }).click();

  // On a phone the list and the conversation are two screens; the filters wait behind their button.
  await sam.setViewportSize(PHONE);
  await expect(sam.getByText("Select a conversation")).toBeHidden();
  await expect(sam.getByRole("button", { name: "Filters" })).toHaveAttribute("aria-expanded", "false");
  await expect(sam.getByLabel("Status")).toBeHidden();
  await row.getByRole("link", { name: VISITOR_EMAIL }).click();
  const conversation = openConversation(sam);
  await expect(conversation.title.getByRole("heading", { level: 1 })).toHaveText(VISITOR_EMAIL);
  await expect(sam.getByRole("list", { name: "Conversations" })).toBeHidden();
  // It opens on the latest messages, the composer pinned in sight.
  await expect(conversation.reply.getByRole("button", { name: "Send reply" })).toBeInViewport();
  // The saved replies' menu is wide enough for its label ("No saved replies yet"), on a row of its own.
  const savedMenu = conversation.reply.getByLabel("Insert a saved reply");
  expect((await savedMenu.boundingBox())?.width).toBeGreaterThanOrEqual(200);
  await keepScreenshot(sam, testInfo, "support-day-conversation-opened-390", { fullPage: false });
  await expect(sam).toHaveTitle(`${VISITOR_EMAIL} · ${AGENT_NAME} · Parley panel`);
  await sam.getByRole("link", { name: "← Conversations" }).click();
  await expect(sam.getByRole("list", { name: "Conversations" })).toBeVisible();
  await expect(sam).toHaveTitle("Conversations · Parley panel");

  // On a desktop: list, conversation and details side by side, the composer in sight without scrolling.
  await sam.setViewportSize(DESKTOP);
  await row.getByRole("link", { name: VISITOR_EMAIL }).click();
  await expect(sam).toHaveURL(new RegExp(`/panel/conversations/${conversationId}$`));
  await expect(conversation.title.getByRole("heading", { level: 1 })).toHaveText(VISITOR_EMAIL);
  await expect(sam.getByRole("list", { name: "Conversations" })).toBeVisible();
  await expect(conversation.handling).toBeVisible();
  await expect(conversation.handling.getByLabel("Assigned to")).toHaveValue(/.+/);
  const replyBox = conversation.reply.getByLabel("Your reply");
  const box = await conversation.reply.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
  await expect(replyBox).toBeInViewport();
  // Opened is read: no dot, no count; the tab names the visitor and the agent.
  await expect(row.getByRole("img", { name: "Unread" })).toHaveCount(0);
  await expect(sam).toHaveTitle(`${VISITOR_EMAIL} · ${AGENT_NAME} · Parley panel`);
  await expect(row.getByRole("link", { name: VISITOR_EMAIL })).toHaveAttribute("aria-current", "page");

  // The transcript: the steps as a numbered list; the agent's tool calls and tokens folded under Details.
  const answer = conversation.transcript.getByRole("listitem").filter({ hasText: "From “How to reset your password”:" });
  const transcriptSteps = answer.locator("ol").filter({ hasText: STEPS_FIRST });
  await expect(transcriptSteps).toHaveCount(1);
  await expect(transcriptSteps.getByRole("listitem")).toHaveCount(5);
  await expect(answer.getByText("search_knowledge_base")).toBeHidden();
  await answer.getByText("Details", { exact: true }).click();
  await expect(answer.getByText("search_knowledge_base")).toBeVisible();
  await expect(answer.getByText(/^\d+ tokens$/)).toBeVisible();

  // Taking over puts the cursor in the composer; Ctrl+Enter sends.
  await conversation.screen.getByRole("button", { name: "Take over" }).click();
  await expect(conversation.status).toHaveText("You took over: the agent stops answering.");
  await expect(replyBox).toBeFocused();
  await sam.keyboard.type(REPLY);
  await replyBox.press("Control+Enter");
  await expect(conversation.status).toHaveText("Reply sent.");
  await expect(replyBox).toHaveValue("");
  await expect(conversation.transcript.getByRole("listitem").filter({ hasText: REPLY })).toContainText("Team member");
  Object.assign(
    violations,
    await checkBothWidths(sam, testInfo, "conversation", async () => {
      await expect(conversation.reply.getByRole("button", { name: "Send reply" })).toBeInViewport();
    }),
  );

  // The reply reaches the visitor's email after the batch window, with a link back.
  await expect
    .poll(() => mails.filter((mail) => mail.to.includes(VISITOR_EMAIL) && decodedMail(mail.raw).includes(REPLY)).length, {
      timeout: 60_000,
      intervals: [1_000],
    })
    .toBe(1);
  const mail = decodedMail(mails.find((candidate) => decodedMail(candidate.raw).includes(REPLY))?.raw ?? "");
  expect(mail).toContain("Subject: New reply from");
  const resume = new RegExp(`Continue the conversation: (${server.base}/help/demo#parley-resume=[A-Za-z0-9_.-]+)`).exec(mail)?.[1];
  expect(resume, "the resume link in the mail").toBeDefined();

  // Sam resolves it ("e", out of the composer).
  await sam.keyboard.press("Escape");
  await sam.keyboard.press("e");
  await expect(conversation.status).toHaveText("Resolved.");
  await expect(conversation.title).toContainText("Resolved");

  // The visitor follows the link: the conversation, resolved, asks how it went; they rate it Good.
  const backContext = await browser.newContext({ viewport: DESKTOP });
  const back = await backContext.newPage();
  await back.goto(resume as string);
  const again = back.getByRole("dialog", { name: "Chat with us" });
  await expect(again.getByRole("log", { name: "Conversation" })).toContainText(REPLY);
  const rating = again.getByRole("group", { name: "How did we do?" });
  await rating.getByRole("button", { name: "Good" }).click();
  await expect(rating.getByRole("button", { name: "Good" })).toHaveAttribute("aria-pressed", "true");
  await backContext.close();

  // The rating shows in Sam's panel, live: the badge, the card, the row.
  await expect(conversation.title).toContainText("Rated good", { timeout: 10_000 });
  await expect(sam.getByRole("region", { name: "Visitor's rating" })).toContainText("Good");
  await expect(row).toContainText("Rated good");
  // The resolved, rated row and the rating card pass axe too.
  Object.assign(violations, await checkBothWidths(sam, testInfo, "rated"));

  await Promise.all([samContext.close(), owner.close()]);
  expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((key) => [key, []])));
});
