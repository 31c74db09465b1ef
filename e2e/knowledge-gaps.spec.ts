// What was not answered and an article's history: a visitor's question the agent cannot answer in
// the help centre's widget, and a "No" under one of its answers, show on the panel's
// unanswered-questions page, which starts an article with the question; an edited article's earlier version is restored from its history; a visitor's "No" under
// a help article counts in the panel's article list.
import { expect, type Page, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { keepScreenshot, signIn, uniqueSuffix, visitAsNewVisitor } from "./support.ts";

function seriousViolations(violations: Awaited<ReturnType<typeof axeViolations>>) {
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

async function openKnowledgeBase(page: Page) {
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Knowledge base" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Knowledge base" })).toBeVisible();
}

test("an unanswered question in the widget appears on the gaps page and starts an article", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const word = `zanzibarparrots${uniqueSuffix()}`;
  const question = `Do you deliver ${word} on Sundays?`;
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    const site = visitor.page;
    await site.getByRole("button", { name: "Open chat" }).click();
    const chat = site.getByRole("dialog", { name: "Chat with us" });
    await chat.getByLabel("Your message").fill(question);
    await chat.getByLabel("Your message").press("Enter");
    await expect(chat.getByRole("log", { name: "Conversation" })).toContainText("I don't know the answer to that");
    // An answer that links articles asks "Was this helpful?"; a "No" is a gap too.
    await chat.getByLabel("Your message").fill("How do I get a refund?");
    await chat.getByLabel("Your message").press("Enter");
    const helpful = chat.getByRole("group", { name: "Was this answer helpful?" });
    await helpful.getByRole("button", { name: "No" }).click();
    await expect(helpful.getByRole("status")).toHaveText("Thanks for your answer.");
  } finally {
    await visitor.close();
  }

  await signIn(page);
  await openKnowledgeBase(page);
  await page.getByRole("link", { name: "Unanswered questions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Unanswered questions" })).toBeVisible();
  const group = page.getByRole("list", { name: "Question groups" }).getByRole("listitem").filter({ hasText: question });
  await expect(group).toContainText("1 × no article found");
  await expect(group).toContainText("1 in the last 7 days · 1 in the last 30 days");
  // Earlier runs against the same server may have grown this group: it says "not helpful" at least.
  const refunds = page
    .getByRole("list", { name: "Question groups" })
    .getByRole("listitem")
    .filter({ hasText: /refund/i });
  await expect(refunds.filter({ hasText: "answer not helpful" }).first()).toBeVisible();
  await keepScreenshot(page, testInfo, "knowledge-gaps");
  expect(seriousViolations(await axeViolations(page))).toEqual([]);

  await group.getByRole("link", { name: "Write an article for this" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New article" })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(question);
});

test("restore an earlier version from an article's history; a visitor's 'No' counts in its score", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const title = `Gift cards ${uniqueSuffix()}`;
  await signIn(page);
  await openKnowledgeBase(page);
  await page.getByRole("link", { name: "New article" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Source").selectOption({ label: "Billing" });
  await page.getByLabel("Content (Markdown)").fill("Gift cards never expire.");
  await page.getByRole("button", { name: "Create article" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const articleId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");

  await page.getByLabel("Content (Markdown)").fill("Gift cards expire after one year.");
  await page.getByRole("button", { name: "Save article" }).click();
  await expect(page.getByText("Article saved.")).toBeVisible();
  const visibility = page.getByRole("region", { name: "Visibility" });
  await visibility.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(visibility.getByRole("status")).toHaveText("Published.");

  // Three saves, newest first: the first one differs from the current text.
  const history = page.getByRole("region", { name: "History" });
  const versions = history.getByRole("list", { name: "Saved versions" }).getByRole("button");
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText("Demo admin · published · current");
  await versions.last().click();
  await expect(history.locator("del")).toContainText(["never expire."]);
  await expect(history.locator("ins")).toContainText(["expire after one year."]);
  await keepScreenshot(page, testInfo, "article-history");
  expect(seriousViolations(await axeViolations(page))).toEqual([]);
  await history.getByRole("button", { name: "Restore this version" }).click();
  await expect(history.getByRole("status")).toHaveText("Version restored.");
  await expect(page.getByLabel("Content (Markdown)")).toHaveValue("Gift cards never expire.");
  await expect(versions).toHaveCount(4);

  // A visitor finds it not helpful.
  const visitor = await visitAsNewVisitor(browser, baseURL, `/help/demo/articles/${articleId}`);
  try {
    const feedback = visitor.page.getByRole("form", { name: "Was this article helpful?" });
    await feedback.getByRole("button", { name: "No" }).click();
    await expect(feedback.getByRole("status")).toHaveText("Thanks — we will use your answer to improve this article.");
    await keepScreenshot(visitor.page, testInfo, "help-article-feedback");
  } finally {
    await visitor.close();
  }
  await openKnowledgeBase(page);
  await page.getByLabel("Search articles").fill(title);
  await expect(page.getByRole("listitem").filter({ hasText: title })).toContainText("0% helpful (0 of 1 vote)");
});

test("near-duplicate questions are one group, a request for a person is not listed, a dismissed group leaves the page and the home count", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  // Case, plurals, punctuation and word order: one question asked three ways.
  const wordings = [`Zanzibar parrot kazoo ${suffix}`, `zanzibar parrots kazoos ${suffix}?`, `${suffix}: kazoos for Zanzibar parrots!`];
  const visitor = await visitAsNewVisitor(browser, baseURL, "/help/demo");
  try {
    const site = visitor.page;
    await site.getByRole("button", { name: "Open chat" }).click();
    const chat = site.getByRole("dialog", { name: "Chat with us" });
    const log = chat.getByRole("log", { name: "Conversation" });
    for (const [index, wording] of wordings.entries()) {
      await chat.getByLabel("Your message").fill(wording);
      await chat.getByLabel("Your message").press("Enter");
      // The agent's "I don't know" in whichever language it read the words as (short made-up
      // words can read as Portuguese): each reply is labelled Assistant.
      await expect(log.getByText("Assistant", { exact: true })).toHaveCount(index + 1);
    }
    await chat.getByLabel("Your message").fill(`I want to talk to a person about ${suffix}`);
    await chat.getByLabel("Your message").press("Enter");
    await expect(log.getByText(`I want to talk to a person about ${suffix}`)).toBeVisible();
  } finally {
    await visitor.close();
  }

  await signIn(page);
  await page.goto("/panel/knowledge/gaps");
  const groups = page.getByRole("list", { name: "Question groups" });
  const group = groups.getByRole("listitem").filter({ hasText: suffix });
  await expect(group).toHaveCount(1);
  await expect(group).toContainText("3 × no article found");
  await expect(group).toContainText("3 in the last 7 days · 3 in the last 30 days");
  await expect(group.getByText(/^Also asked as:/)).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("talk to a person about");

  // The home page's figure is the page's 7-day total (one query for both).
  const totals = page.getByTestId("gap-totals");
  const total = async () => {
    if ((await totals.count()) === 0) return 0;
    const text = (await totals.textContent()) ?? "";
    return Number(text.match(/^([\d,]+) questions? in the last 7 days/)?.[1]?.replace(/,/g, ""));
  };
  const before = await total();
  expect(before).toBeGreaterThanOrEqual(3);
  await page.setViewportSize({ width: 1280, height: 900 });
  await keepScreenshot(page, testInfo, "knowledge-gaps-groups-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "knowledge-gaps-groups-390");
  expect(seriousViolations(await axeViolations(page))).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/panel");
  await expect(page.getByRole("link", { name: `${before} unanswered questions in the last 7 days` })).toBeVisible();
  await keepScreenshot(page, testInfo, "knowledge-gaps-home-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "knowledge-gaps-home-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("link", { name: `${before} unanswered questions in the last 7 days` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Unanswered questions" })).toBeVisible();
  const question = (await group.locator(".item-title").textContent()) ?? "";
  await group.getByRole("button", { name: /^Dismiss/ }).click();
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "Dismissed" })).toHaveText(
    `Dismissed “${question}” (3 questions).`,
  );
  await expect(group).toHaveCount(0);
  await expect.poll(total).toBe(before - 3);
  await keepScreenshot(page, testInfo, "knowledge-gaps-dismissed-1280");
  await page.goto("/panel");
  const after = before - 3;
  await expect(
    page.getByRole("link", { name: `${after} unanswered ${after === 1 ? "question" : "questions"} in the last 7 days` }),
  ).toBeVisible();

  // The audit log says who dismissed how many, never the visitors' words.
  await page.goto("/panel/audit");
  await expect(page.getByRole("main")).toContainText("Dismissed a group of 3 unanswered questions");
  await expect(page.getByRole("main")).not.toContainText(question);
});
