// No script runs from an article or a reply: the OWASP filter-evasion payloads of one fixture, put in
// an article and in a team member's reply, are opened where Markdown becomes HTML (the editor's
// preview, the public help page, the panel's conversation view); no payload runs, even when every
// link is clicked, and the DOM holds no script URL or event handler.
import { XSS_ARTICLE, XSS_PAYLOADS } from "@parley/testing/xss-payloads";
import { expect, test } from "@playwright/test";
import { clickEveryLink, cspViolations, expectNoDangerousMarkup, expectNoScriptRan, installTraps } from "./security.ts";
import {
  closeNewKeyDialog,
  expectMessageResponse,
  keepScreenshot,
  openNewKeyDialog,
  sendMessage,
  signIn,
  uniqueSuffix,
} from "./support.ts";
import { openConversation as openedConversation } from "./workspace.ts";

const LAST_HEADING = XSS_PAYLOADS.at(-1)!.name;

test("the XSS payloads run nowhere: editor preview, help article, conversation view", async ({
  page,
  context,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const traps = await installTraps(context);
  await signIn(page);

  // The editor: type the article, the preview renders it.
  const title = `Payloads ${uniqueSuffix()}`;
  await page.goto("/panel/knowledge/articles/new");
  // The sources are loaded by the page's script: the form is live (what is typed before stays).
  await expect(page.getByLabel("Source").getByRole("option", { name: "Billing" })).toBeAttached();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Source").selectOption({ label: "Billing" });
  await page.getByLabel("Content (Markdown)").fill(XSS_ARTICLE);
  const preview = () => page.getByRole("region", { name: "Preview" });
  await expect(preview().getByRole("heading", { name: LAST_HEADING })).toBeVisible();
  await expectNoDangerousMarkup(preview(), "the new article's preview");
  await expectNoScriptRan(page, traps, "the new article's preview");
  await page.getByRole("button", { name: "Create article" }).click();
  // (Not the /new page it was created on.)
  await expect(page).toHaveURL(/\/panel\/knowledge\/articles\/(?!new$)[^/]+$/);
  const articlePath = new URL(page.url()).pathname;
  const articleId = decodeURIComponent(articlePath.split("/").pop() ?? "");
  await page.getByRole("region", { name: "Visibility" }).getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("region", { name: "Visibility" }).getByRole("status")).toHaveText("Published.");

  // The saved article's preview: every link clicked.
  const openEditor = async () => {
    await page.goto(articlePath);
    await expect(preview().getByRole("heading", { name: LAST_HEADING })).toBeVisible();
  };
  await openEditor();
  await expectNoDangerousMarkup(preview(), "the article editor's preview");
  await clickEveryLink(page, traps, preview, openEditor, "the article editor's preview");
  expect(await cspViolations(page)).toEqual([]);

  // The public help page, as a visitor.
  const visitorContext = await browser.newContext({ baseURL });
  try {
    const visitorTraps = await installTraps(visitorContext);
    const visitor = await visitorContext.newPage();
    const helpPath = `/help/demo/articles/${encodeURIComponent(articleId)}`;
    const prose = () => visitor.locator(".help-prose");
    const openHelp = async () => {
      expect((await visitor.goto(helpPath))?.status()).toBe(200);
      await expect(prose().getByRole("heading", { name: LAST_HEADING })).toBeVisible();
    };
    await openHelp();
    await expectNoDangerousMarkup(prose(), "the help article");
    await clickEveryLink(visitor, visitorTraps, prose, openHelp, "the help article");
    expect(await cspViolations(visitor)).toEqual([]);
  } finally {
    await visitorContext.close();
  }

  // The conversation view: a visitor writes the payloads, a team member replies with them.
  await page.goto("/panel/agents/demo");
  const { key } = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, key);
  const handoff = await expectMessageResponse(
    await sendMessage(page.request, "demo", key, { message: "I want to talk to a human", visitor: { name: `XSS ${uniqueSuffix()}` } }),
  );
  await expectMessageResponse(
    await sendMessage(page.request, "demo", key, { message: XSS_ARTICLE, conversationId: handoff.conversationId }),
  );
  const conversationPath = `/panel/conversations/${handoff.conversationId}`;
  await page.goto(conversationPath);
  const conversation = openedConversation(page);
  await conversation.reply.getByLabel("Your reply").fill(XSS_ARTICLE);
  await conversation.reply.getByRole("button", { name: "Send reply" }).click();
  await expect(conversation.status).toHaveText("Reply sent.");
  const transcript = () => page.getByRole("region", { name: "Transcript" });
  const teamReply = () => transcript().locator(".message-human");
  const openConversation = async () => {
    await page.goto(conversationPath);
    await expect(teamReply().getByRole("heading", { name: LAST_HEADING })).toBeVisible();
  };
  await openConversation();
  await expectNoDangerousMarkup(transcript(), "the conversation view");
  await clickEveryLink(page, traps, teamReply, openConversation, "the conversation view");
  expect(await cspViolations(page)).toEqual([]);
  await expectNoScriptRan(page, traps, "the conversation view");
  // The team's reply shows its Markdown (headings, code) and the visitor's message its plain text.
  await expect(teamReply().locator("code").first()).toHaveText("<img src=x onerror=alert('code')>");
  await expect(transcript().locator(".message-user").last()).toContainText("### entity-encoded colon");
  await keepScreenshot(page, testInfo, "conversation-markdown-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "conversation-markdown-390");
});
