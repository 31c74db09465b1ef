// The support inbox, live, with two panels open at once (two browser contexts, each signed in): a
// widget visitor on the help centre asks for a person; the second panel sees the new conversation
// and the waiting count in the navigation without a reload; the first takes it over and replies;
// the second sees it assigned, live; the visitor sees who joined; a keyboard shortcut resolves it.
import { visitorTag } from "@parley/core/browser";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";
import { inboxRow, openConversation, openFilters } from "./workspace.ts";

const ADMIN_NAME = "Demo admin";

async function panel(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page);
  return { page, close: () => context.close() };
}

function conversationsLink(page: Page) {
  return page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: /^Conversations/ });
}

test("two panels: a widget escalation shows up live, one takes it over, the other sees it assigned at once", async ({
  browser,
  baseURL,
}, testInfo) => {
  const first = await panel(browser, baseURL);
  const second = await panel(browser, baseURL);
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    // The second panel watches the unassigned queue.
    await conversationsLink(second.page).click();
    await openFilters(second.page);
    await second.page.getByLabel("Assigned to").selectOption("unassigned");
    await expect(second.page).toHaveURL(/assignee=unassigned/);
    await expect(second.page.getByText("Loading conversations…")).toBeHidden();
    const waitingBefore = await waitingCount(second.page);

    // The visitor chats through the help centre's widget and asks for a person.
    const site = visitor.page;
    await site.getByRole("button", { name: "Open chat" }).click();
    const chat = site.getByRole("dialog", { name: "Chat with us" });
    const input = chat.getByLabel("Your message");
    const question = `My invoice shows the wrong VAT number ${Date.now().toString(36)}`;
    await input.fill(question);
    await input.press("Enter");
    await input.fill("I want to talk to a human");
    await input.press("Enter");
    const log = chat.getByRole("log", { name: "Conversation" });
    await expect(log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();
    const conversationId = await site.evaluate(
      () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
    );
    const rowOf = (page: Page) => inboxRow(page, conversationId);

    // Live in the second panel (its polling is once a minute, so this is the stream): the row,
    // named by the page the visitor is on, previewing what they asked, and the navigation's count.
    const identity = `Visitor ${visitorTag(conversationId)} on ${new URL(baseURL ?? "http://localhost").host}/help/demo`;
    const row = rowOf(second.page);
    await expect(row).toBeVisible({ timeout: 8_000 });
    await expect(row.getByRole("link", { name: identity })).toBeVisible();
    await expect(row).toContainText("I want to talk to a human");
    await expect(row).toContainText("Escalated");
    await expect(row).toContainText(/Waiting (just now|1 min)/);
    await expect.poll(() => waitingCount(second.page), { timeout: 8_000 }).toBe(waitingBefore + 1);
    await keepScreenshot(second.page, testInfo, "inbox-list-waiting");

    // The first panel opens it from its own list and takes it over.
    await conversationsLink(first.page).click();
    await rowOf(first.page).getByRole("link", { name: identity }).click();
    const conversation = openConversation(first.page);
    await expect(conversation.state).toContainText("Waiting for a person");
    await conversation.screen.getByRole("button", { name: "Take over" }).click();
    await expect(conversation.status).toHaveText("You took over: the agent stops answering.");
    await expect(conversation.state).toContainText("You have this conversation.");
    await expect(conversation.handling.getByLabel("Assigned to")).toHaveValue(/.+/);
    // Taking over puts the cursor in the composer; Esc leaves it, and "r" brings it back.
    const replyBox = conversation.reply.getByLabel("Your reply");
    await expect(replyBox).toBeFocused();
    await first.page.keyboard.press("Escape");
    await expect(replyBox).not.toBeFocused();
    const transcript = conversation.transcript;
    await expect(transcript).toContainText(`Taken over by ${ADMIN_NAME}`);

    // The second panel: the row leaves the unassigned queue and the count drops, live.
    await expect(row).toHaveCount(0, { timeout: 8_000 });
    await expect.poll(() => waitingCount(second.page), { timeout: 8_000 }).toBe(waitingBefore);
    // ...and shows the conversation assigned in the full list, also live.
    await second.page.getByLabel("Assigned to").selectOption("");
    await expect(second.page).not.toHaveURL(/assignee=/);
    const assignedRow = rowOf(second.page);
    await expect(assignedRow).toContainText(`${ADMIN_NAME} ·`);

    // The visitor sees who joined; the reply arrives live with their name.
    await expect(log.getByRole("listitem").filter({ hasText: `${ADMIN_NAME} from our team has joined the conversation.` })).toBeVisible();
    const reply = "Hi, I can fix the VAT number on that invoice for you.";
    await first.page.keyboard.press("r");
    await expect(replyBox).toBeFocused();
    await first.page.keyboard.type(reply);
    await conversation.reply.getByRole("button", { name: "Send reply" }).click();
    await expect(conversation.status).toHaveText("Reply sent.");
    await expect(log.getByRole("listitem").filter({ hasText: reply })).toContainText(ADMIN_NAME);
    await keepScreenshot(first.page, testInfo, "inbox-conversation-taken-over");

    // "e" resolves (focus out of the reply box first); the second panel's row says so, live.
    await first.page.getByRole("heading", { level: 1 }).click();
    await first.page.keyboard.press("e");
    await expect(conversation.status).toHaveText("Resolved.");
    await expect(transcript).toContainText(`Resolved by ${ADMIN_NAME}`);
    await expect(assignedRow).toContainText("Resolved", { timeout: 8_000 });

    // The visitor writes again: the agent answers, and the conversation is active again.
    await input.fill("How do I get a refund?");
    await input.press("Enter");
    // A question complete on its own is answered from its article, whatever was said before.
    await expect(log.locator(".msg.agent").last()).toContainText("From “Refund policy and how to request a refund”");
    await expect(conversation.title).toContainText("Active", { timeout: 8_000 });
    await expect(transcript).toContainText("Reopened by a new message");
  } finally {
    await Promise.all([first.close(), second.close(), visitor.close()]);
  }
});

test("an empty queue says so; j and k move through the list", async ({ page }) => {
  await signIn(page);
  await page.goto("/panel/conversations?assignee=mine&status=active&agent=demo-nokey");
  await expect(page.getByText("No conversations are assigned to you. Take one over to see it here.")).toBeVisible();

  await page.goto("/panel/conversations");
  const links = page.getByRole("list", { name: "Conversations" }).locator("a.item-title");
  await expect(links.first()).toBeVisible();
  await page.keyboard.press("j");
  await expect(links.first()).toBeFocused();
  if ((await links.count()) > 1) {
    await page.keyboard.press("j");
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press("k");
    await expect(links.first()).toBeFocused();
  }
});

test("a search finds a conversation by a word of one of its messages", async ({ page, baseURL }) => {
  await signIn(page);
  // A conversation through the HTTP API (the panel session's key route gives the key).
  const issued = await page.request.post("/api/agents/demo/http-api-key", { headers: { origin: baseURL ?? "" } });
  expect(issued.status()).toBe(201);
  const { key } = (await issued.json()).data as { key: string };
  const word = `quokka${uniqueSuffix()}`;
  const sent = await page.request.post("/api/agent/demo/messages", {
    headers: { authorization: `Bearer ${key}` },
    data: { message: `Do you ship the ${word} edition to Lisbon?`, visitor: { email: "rita@example.pt" } },
  });
  expect(sent.status()).toBe(200);
  const { conversationId } = (await sent.json()) as { conversationId: string };
  await page.request.post("/api/agent/demo/messages", {
    headers: { authorization: `Bearer ${key}` },
    data: { message: "Thanks!", conversationId },
  });

  await conversationsLink(page).click();
  const search = page.getByRole("searchbox", { name: "Search conversations" });
  await expect(page.getByRole("list", { name: "Conversations" })).toBeVisible();
  await page.getByRole("heading", { level: 1, name: "Conversations" }).click();
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  // A word of an earlier message (the last one is "Thanks!"), by its first letters.
  await search.fill(word.slice(0, -2).toUpperCase());
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=/);
  const list = page.getByRole("list", { name: "Conversations" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  // (The link keeps the search beside the conversation it opens.)
  await expect(list.getByRole("link", { name: "rita@example.pt" })).toHaveAttribute(
    "href",
    new RegExp(`^/panel/conversations/${conversationId}\\?q=`),
  );

  // The tag the panel names an anonymous visitor by ("#K3Z9") finds its conversation too.
  await search.fill(visitorTag(conversationId));
  await search.press("Enter");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("link", { name: "rita@example.pt" })).toBeVisible();

  await search.fill("nothing-like-this-anywhere");
  await search.press("Enter");
  await expect(page.getByText("No conversation matches “nothing-like-this-anywhere”.")).toBeVisible();
});

/** The navigation's count of escalations waiting for a person (0 when the badge is absent). */
async function waitingCount(page: Page): Promise<number> {
  const badge = page
    .getByRole("navigation", { name: "Panel" })
    .getByRole("link", { name: /^Unassigned/ })
    .locator(".nav-count");
  if ((await badge.count()) === 0) return 0;
  return Number.parseInt((await badge.innerText()).trim(), 10) || 0;
}
