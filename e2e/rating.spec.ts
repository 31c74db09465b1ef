// How it went: a widget visitor chats, asks for a person; an admin resolves the conversation in the
// panel; the widget shows the closing line and "How did we do?"; the visitor rates "Good" in one
// click and adds a comment; the rating shows on the conversation page, under the inbox's "Rated
// good" filter and on the home page. Screenshots of the widget and the panel at 1280 and 390 px.
import { expect, test } from "@playwright/test";
import { keepScreenshot, openWidgetChat, signIn, visitAsNewVisitor } from "./support.ts";
import { inboxRow, openConversation, openFilters } from "./workspace.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const CLOSING = "This conversation has been resolved. If you need anything else, just write here.";
const COMMENT = "Quick and kind, thank you!";

test("a resolved conversation asks the visitor how it went; their rating shows in the panel", async ({
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
    const { chat, input, log } = await openWidgetChat(site);
    await input.fill("How do I reset my password?");
    await input.press("Enter");
    await expect(log.locator(".msg.agent")).toHaveCount(1);
    await input.fill("I want to talk to a human");
    await input.press("Enter");
    await expect(log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();
    const conversationId = await site.evaluate(
      () => (window as unknown as { parley: { connection: { conversationId: string } } }).parley.connection.conversationId,
    );
    // Nothing to rate while it is open.
    await expect(chat.getByRole("group", { name: "How did we do?" })).toHaveCount(0);

    // The admin resolves it in the panel.
    await page.goto(`/panel/conversations/${conversationId}`);
    const ratingCard = page.getByRole("region", { name: "Visitor's rating" });
    await expect(ratingCard).toContainText("Not rated. The widget asks the visitor when a person resolves the conversation.");
    const conversation = openConversation(page);
    await conversation.screen.getByRole("button", { name: "Resolve" }).click();
    await expect(conversation.status).toHaveText("Resolved.");

    // The widget says so at once and asks for a rating: three buttons, nothing chosen.
    const closing = log.locator("li.closing");
    await expect(closing).toContainText(CLOSING);
    const rating = chat.getByRole("group", { name: "How did we do?" });
    for (const name of ["Good", "Okay", "Bad"]) await expect(rating.getByRole("button", { name })).toHaveAttribute("aria-pressed", "false");
    await keepScreenshot(site, testInfo, "rating-widget-asked-1280", { fullPage: false });
    await site.setViewportSize(PHONE);
    await keepScreenshot(site, testInfo, "rating-widget-asked-390", { fullPage: false });

    // One click rates; words are optional, sent after.
    await rating.getByRole("button", { name: "Good" }).click();
    await expect(rating.getByRole("button", { name: "Good" })).toHaveAttribute("aria-pressed", "true");
    await expect(closing.getByRole("status")).toHaveText("Thanks! You rated this conversation “Good”.");
    await closing.getByLabel("Anything you would like to add? (optional)").fill(COMMENT);
    await closing.getByRole("button", { name: "Send comment" }).click();
    await expect(closing.getByRole("status")).toHaveText("Thanks! You rated this conversation “Good” and told us more.");
    await expect(closing.getByLabel("Anything you would like to add? (optional)")).toBeHidden();
    await keepScreenshot(site, testInfo, "rating-widget-rated-390", { fullPage: false });
    await site.setViewportSize(DESKTOP);
    await closing.scrollIntoViewIfNeeded();
    await keepScreenshot(site, testInfo, "rating-widget-rated-1280", { fullPage: false });

    // Back on the page later: the closing line and the rating given are still there.
    await site.reload();
    await site.getByRole("button", { name: "Open chat" }).click();
    await expect(chat.locator("li.closing")).toContainText(CLOSING);
    await expect(chat.getByRole("group", { name: "How did we do?" }).getByRole("button", { name: "Good" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    // The panel's conversation page shows the rating and the visitor's words.
    await page.reload();
    await expect(ratingCard).toContainText("Good");
    await expect(ratingCard).toContainText(COMMENT);
    await expect(conversation.title).toContainText("Rated good");
    await keepScreenshot(page, testInfo, "rating-conversation-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    // On a phone the details are behind Info.
    const info = conversation.screen.getByRole("button", { name: "Info" });
    await expect(info).toHaveAttribute("aria-expanded", "false");
    await info.click();
    // Open reads as open: the details replace the transcript, and the button looks pressed.
    await expect(info).toHaveAttribute("aria-expanded", "true");
    await expect(conversation.transcript).toBeHidden();
    expect(await info.evaluate((button) => getComputedStyle(button).fontWeight)).toBe("600");
    await ratingCard.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, "rating-conversation-390", { fullPage: false });
    await info.click();
    await expect(info).toHaveAttribute("aria-expanded", "false");
    await expect(conversation.transcript).toBeVisible();
    await keepScreenshot(page, testInfo, "rating-conversation-info-closed-390", { fullPage: false });
    await page.setViewportSize(DESKTOP);

    // The inbox's Rating filter: listed under "Rated good", not under "Rated bad".
    await page.goto("/panel/conversations");
    await openFilters(page);
    await page.getByLabel("Rating").selectOption("good");
    await expect(page).toHaveURL(/\/panel\/conversations\?rating=good$/);
    await expect(page.getByText("Loading conversations…")).toBeHidden();
    const row = inboxRow(page, conversationId);
    await expect(row).toContainText("Rated good");
    await keepScreenshot(page, testInfo, "rating-inbox-filter-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    await keepScreenshot(page, testInfo, "rating-inbox-filter-390", { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await page.getByLabel("Rating").selectOption("bad");
    await expect(page).toHaveURL(/\/panel\/conversations\?rating=bad$/);
    await expect(page.getByText("Loading conversations…")).toBeHidden();
    await expect(inboxRow(page, conversationId)).toHaveCount(0);

    // The home page counts it among the week's ratings, and links to the filtered inbox.
    await page.goto("/panel");
    const ratings = page.getByRole("region", { name: "Visitor ratings, last 7 days" });
    await expect(ratings).toContainText(/\d+% rated good, of \d+ ratings?/);
    await expect(ratings.getByRole("link", { name: /^Good: \d+/ })).toHaveAttribute("href", "/panel/conversations?rating=good");
    await ratings.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, "rating-home-1280", { fullPage: false });
    await page.setViewportSize(PHONE);
    await ratings.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, "rating-home-390", { fullPage: false });
  } finally {
    await visitor.close();
  }
});
