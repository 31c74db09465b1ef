// What a visitor is told after asking for a person, and the order the team sees waiting visitors
// in: a widget visitor asks for a person and reads that a person will reply (not that anyone
// joined); a second visitor asks later through the HTTP API; the inbox, its Escalated filter and the
// panel home list the first visitor above the second (the longest wait first, although the second
// was active more recently); assigning the first conversation tells its visitor nothing, their
// "Hello? Is anyone there?" gets the same truthful answer; the reply from the panel is what tells
// them a person joined. Screenshots of the widget, the inbox and the home at 1280 and 390 px.
import { expect, type Page, test } from "@playwright/test";
import { keepScreenshot, openWidgetChat, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";
import { inboxRow, openConversation } from "./workspace.ts";

const ADMIN_NAME = "Demo admin";
/** With too few answered handoffs no time is promised; once the team has answered five, the median. */
const WAITING_NOTICE = /^A person will reply here(; usually within \d+ (minute|minutes|hour|hours|days))?\.$/;
// (The rendered reply's text ends with the paragraph's line break.)
const WAITING_REPLY =
  /^Thanks, your message has been added to the conversation\. A person will reply here(; usually within \d+ \w+)?\.\s*$/;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The conversation links of the list on screen, in order. */
async function listedIds(page: Page): Promise<string[]> {
  const links = page.getByRole("list", { name: "Conversations" }).locator("a.item-title");
  await expect(links.first()).toBeVisible();
  return (await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""))).map((href) =>
    // (The link keeps the list's filters after the id.)
    decodeURIComponent(href.replace("/panel/conversations/", "").split("?")[0] ?? ""),
  );
}

test("an assignment does not tell the visitor someone joined, a reply does; the longest wait is listed first", async ({
  browser,
  baseURL,
  page,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    const site = visitor.page;
    await site.setViewportSize(DESKTOP);
    const { input, log } = await openWidgetChat(site);
    await input.fill("I want to talk to a human");
    await input.press("Enter");
    await expect(log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();
    // What is true: a person will reply. Nobody has joined. (It reads after the agent's handoff reply.)
    const notices = log.locator("li.notice");
    await expect(notices).toHaveCount(1);
    await expect(notices).toHaveText(WAITING_NOTICE);
    await expect(log.locator("li.msg.agent + li.notice")).toHaveText(WAITING_NOTICE);
    const waitingId = await site.evaluate(
      () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
    );

    // A second visitor asks for a person later, through the HTTP API: a shorter wait, more recent activity.
    const issued = await page.request.post("/api/agents/demo/http-api-key", { headers: { origin: baseURL ?? "" } });
    expect(issued.status()).toBe(201);
    const { key } = (await issued.json()).data as { key: string };
    const laterName = `Later visitor ${uniqueSuffix()}`;
    const later = await page.request.post("/api/agent/demo/messages", {
      headers: { authorization: `Bearer ${key}` },
      data: { message: "Can I talk to a person?", visitor: { name: laterName } },
    });
    expect(later.status()).toBe(200);
    const laterBody = (await later.json()) as { conversationId: string; status: string };
    expect(laterBody.status).toBe("escalated");

    // Every list puts the first visitor (the longest wait) above the second.
    for (const url of [
      "/panel/conversations",
      "/panel/conversations?status=escalated",
      "/panel/conversations?status=escalated&assignee=unassigned",
    ]) {
      await page.goto(url);
      await expect(page.getByText("Loading conversations…")).toBeHidden();
      await expect(inboxRow(page, laterBody.conversationId)).toBeVisible();
      const ids = await listedIds(page);
      expect(ids.indexOf(waitingId), url).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(waitingId), url).toBeLessThan(ids.indexOf(laterBody.conversationId));
    }
    const waitingRow = inboxRow(page, waitingId);
    await expect(waitingRow).toContainText(/Waiting (just now|\d+ min)/);
    await keepScreenshot(page, testInfo, "queue-inbox-escalated-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    await keepScreenshot(page, testInfo, "queue-inbox-escalated-390", { fullPage: false });
    await page.setViewportSize(DESKTOP);

    await page.goto("/panel");
    const home = page.getByRole("region", { name: /^Waiting for a person/ });
    await expect(home.getByRole("link", { name: laterName })).toBeVisible();
    const homeIds = await home
      .getByRole("listitem")
      .locator("a")
      .evaluateAll((anchors) =>
        anchors.map((anchor) => decodeURIComponent((anchor.getAttribute("href") ?? "").replace("/panel/conversations/", ""))),
      );
    expect(homeIds.indexOf(waitingId)).toBeGreaterThanOrEqual(0);
    expect(homeIds.indexOf(waitingId)).toBeLessThan(homeIds.indexOf(laterBody.conversationId));
    await keepScreenshot(page, testInfo, "queue-home-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    await keepScreenshot(page, testInfo, "queue-home-390", { fullPage: false });
    await page.setViewportSize(DESKTOP);

    // Assigned, not taken over: the visitor is told nothing new, and asking again gets the truth.
    await page.goto(`/panel/conversations/${waitingId}`);
    const conversation = openConversation(page);
    await conversation.handling.getByLabel("Assigned to").selectOption({ label: `${ADMIN_NAME} (you)` });
    await expect(conversation.status).toHaveText("Assignment saved.");
    await expect(conversation.state).toContainText("You have this conversation.");
    await expect(conversation.state).toContainText("The visitor's latest message has no reply yet (waiting");
    // Assigned to me is not joined: Take over is still offered (it would tell the visitor).
    await expect(conversation.screen.getByRole("button", { name: "Take over" })).toBeVisible();
    await keepScreenshot(page, testInfo, "queue-conversation-assigned-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    await conversation.state.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, "queue-conversation-assigned-390", { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await input.fill("Hello? Is anyone there?");
    await input.press("Enter");
    await expect(log.locator(".msg.agent").last().locator(".body")).toHaveText(WAITING_REPLY);
    await expect(log.getByRole("listitem").filter({ hasText: "joined the conversation" })).toHaveCount(0);
    await expect(notices).toHaveCount(1);
    await keepScreenshot(site, testInfo, "queue-widget-assigned-1280", { fullPage: false });

    // The reply is what tells the visitor a person joined, then shows with their name.
    const reply = "Hi, I am here now. Let me look at your account.";
    await conversation.reply.getByLabel("Your reply").fill(reply);
    await conversation.reply.getByRole("button", { name: "Send reply" }).click();
    await expect(conversation.status).toHaveText("Reply sent.");
    await expect(log.getByRole("listitem").filter({ hasText: `${ADMIN_NAME} from our team has joined the conversation.` })).toHaveCount(1);
    await expect(log.getByRole("listitem").filter({ hasText: reply })).toContainText(ADMIN_NAME);
    await keepScreenshot(site, testInfo, "queue-widget-joined-1280", { fullPage: false });
    await site.setViewportSize(PHONE);
    await keepScreenshot(site, testInfo, "queue-widget-joined-390", { fullPage: false });

    // Answered: the visitor no longer waits, so the row no longer says so.
    await page.goto("/panel/conversations?status=escalated");
    await expect(page.getByText("Loading conversations…")).toBeHidden();
    await expect(inboxRow(page, waitingId)).not.toContainText("Waiting");

    // Leave nothing waiting for the other journeys.
    for (const id of [waitingId, laterBody.conversationId]) {
      await page.goto(`/panel/conversations/${id}`);
      await conversation.screen.getByRole("button", { name: "Resolve" }).click();
      await expect(conversation.status).toHaveText("Resolved.");
    }
  } finally {
    await visitor.close();
  }
});
