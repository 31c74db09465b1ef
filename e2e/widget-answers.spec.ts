// How the knowledge agent's answers are shown: an article's numbered steps come back as a numbered
// list (not one run-on paragraph), the paragraph after them apart, the article as a card, at
// desktop and phone widths; in the widget, and the same in the panel's test chat and in the
// conversation's transcript. All show the server's sanitised HTML of the reply's Markdown.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { E2E_PORT } from "./playwright.config.ts";
import { keepScreenshot, signIn } from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;

/** The widget's parts, found by role and label (Playwright's locators pierce its open shadow root). */
function widget(page: Page) {
  const panel = page.getByRole("dialog", { name: "Chat with us" });
  return { panel, log: panel.getByRole("log", { name: "Conversation" }), input: panel.getByLabel("Your message") };
}

const STEPS = [
  "Go to the sign-in page at app.acmecloud.example/login.",
  "Choose Forgot password? under the password field.",
  "Enter the email address you use for Acme Cloud and choose Send reset link.",
  'Open the email titled "Reset your Acme Cloud password" and select Choose a new password.',
  "Type your new password twice and choose Save. You are signed in right away.",
];

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`an answer with numbered steps shows them as a numbered list, the article as a card (${viewport.width} px)`, async ({
    browser,
  }, testInfo) => {
    // A new visitor on the help centre (the app's own origin), which embeds the demo agent's widget.
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      await page.goto("/help/demo");
      await page.getByRole("button", { name: "Open chat" }).click();
      const chat = widget(page);
      await expect(chat.panel).toBeVisible();
      await chat.input.fill("How do I reset my password?");
      await chat.input.press("Enter");

      const card = { name: "How to reset your password" };
      const answer = chat.log.getByRole("listitem").filter({ has: page.getByRole("link", card) });
      await expect(answer).toContainText("From “How to reset your password”:");
      // The article's five steps, in order, as the items of one numbered list.
      const list = answer.getByRole("list");
      await expect(list).toHaveCount(1);
      expect(await list.evaluate((element) => element.tagName)).toBe("OL");
      await expect(list.getByRole("listitem")).toHaveText(STEPS);
      // Each step on a line of its own, one below the other, with its number shown.
      const tops = await list.getByRole("listitem").evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(new Set(tops).size).toBe(STEPS.length);
      expect(await list.evaluate((element) => getComputedStyle(element.querySelector("li")!).listStyleType)).toBe("decimal");
      // The paragraph after the steps stays a paragraph of its own; the article stays a card.
      await expect(answer.locator("p", { hasText: "The reset link works once and expires after 60 minutes." })).toBeVisible();
      await expect(answer.getByRole("link", card)).toHaveAttribute("href", `${APP_ORIGIN}/help/demo/articles/reset-password`);
      // No Markdown marker is left as text.
      expect(await answer.textContent()).not.toMatch(/(^|\n)\s*\d\.\s/);

      await list.scrollIntoViewIfNeeded();
      await keepScreenshot(page, testInfo, `widget-numbered-steps-${viewport.width}`, { fullPage: false });
    } finally {
      await context.close();
    }
  });
}

/** The one numbered list of an answer's text holding the five steps in order (beside the lists of its card or tool calls). */
async function expectSteps(answer: Locator): Promise<void> {
  const list = answer.getByRole("list").filter({ hasText: STEPS[0]! });
  await expect(list).toHaveCount(1);
  expect(await list.evaluate((element) => element.tagName)).toBe("OL");
  await expect(list.getByRole("listitem")).toHaveText(STEPS);
  expect(await list.evaluate((element) => getComputedStyle(element.querySelector("li")!).listStyleType)).toBe("decimal");
}

test("the panel's test chat and the conversation's transcript show the steps as a numbered list too", async ({
  page,
  browser,
}, testInfo) => {
  // A visitor asks in the widget; the conversation is theirs to read in the panel.
  const visitor = await browser.newContext();
  let conversationId: string | null = null;
  try {
    const site = await visitor.newPage();
    await site.goto("/help/demo");
    await site.getByRole("button", { name: "Open chat" }).click();
    const chat = widget(site);
    await chat.input.fill("How do I reset my password?");
    await chat.input.press("Enter");
    await expectSteps(chat.log.getByRole("listitem").filter({ has: site.getByRole("link", { name: "How to reset your password" }) }));
    conversationId = await site.evaluate(
      () =>
        (window as unknown as { parley?: { connection: { conversationId: string | null } | null } }).parley?.connection?.conversationId ??
        null,
    );
  } finally {
    await visitor.close();
  }
  expect(conversationId).toBeTruthy();

  await signIn(page);
  await page.goto("/panel/agents/demo?tab=answers");
  const tryIt = page.getByRole("region", { name: "Try it" });
  await tryIt.getByLabel("Test message").fill("How do I reset my password?");
  await tryIt.getByRole("button", { name: "Send" }).click();
  const testAnswer = tryIt
    .getByRole("list", { name: "Test conversation" })
    .getByRole("listitem")
    .filter({ hasText: "From “How to reset your password”:" });
  await expectSteps(testAnswer);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await testAnswer.getByRole("list").filter({ hasText: STEPS[0]! }).scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `test-chat-numbered-steps-${width}`, { fullPage: false });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/panel/conversations/${conversationId}`);
  const transcript = page.getByRole("region", { name: "Transcript" });
  const answer = transcript.getByRole("listitem").filter({ hasText: "From “How to reset your password”:" });
  await expectSteps(answer);
  await expect(answer.locator("p", { hasText: "The reset link works once and expires after 60 minutes." })).toBeVisible();
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await answer.getByRole("list").filter({ hasText: STEPS[0]! }).scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `transcript-numbered-steps-${width}`, { fullPage: false });
  }
});
