// A visitor asks the demo agent for a person through the messages API; the
// conversation shows as escalated in the panel, an admin replies and hands it back to the agent.
import { expect, test } from "@playwright/test";
import {
  closeNewKeyDialog,
  expectMessageResponse,
  keepScreenshot,
  openAgents,
  openNewKeyDialog,
  sendMessage,
  signIn,
  uniqueSuffix,
} from "./support.ts";
import { openConversation, openFilters } from "./workspace.ts";

test("a handoff turn is escalated in the panel; an admin replies and hands it back", async ({ page, request }, testInfo) => {
  const visitorName = `E2E Visitor ${uniqueSuffix()}`;
  const reply = "Hi, this is Sam from support. I have issued your refund.";
  await signIn(page);
  await openAgents(page);

  // The README's path: Agents → demo → Generate key (or Rotate, when an earlier attempt made one).
  await page.getByRole("link", { name: "Acme Cloud help assistant" }).click();
  await expect(page).toHaveURL("/panel/agents/demo");
  const { key } = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, key);

  const handoff = await expectMessageResponse(
    await sendMessage(request, "demo", key, { message: "I want to talk to a human", visitor: { name: visitorName } }),
  );
  expect(handoff.handoffRequested).toBe(true);
  expect(handoff.status).toBe("escalated");
  expect(handoff.toolCalls.map((call) => call.name)).toContain("request_human");

  // Escalated conversations: the new one is listed and marked.
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Conversations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Conversations" })).toBeVisible();
  await openFilters(page);
  await page.getByLabel("Status").selectOption("escalated");
  await expect(page).toHaveURL(/\/panel\/conversations\?status=escalated$/);
  const item = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: visitorName }) });
  await expect(item).toContainText("Escalated");
  await expect(item).toHaveClass(/item-escalated/);
  // The preview is what the visitor asked, and the escalation waits for a person.
  await expect(item).toContainText("I want to talk to a human");
  await expect(item).toContainText("Unassigned");
  await expect(item).toContainText(/Waiting (just now|\d+ min)/);
  await item.getByRole("link", { name: visitorName }).click();

  // The conversation opens beside the list, the list's filter kept in the address.
  await expect(page).toHaveURL(`/panel/conversations/${handoff.conversationId}?status=escalated`);
  const conversation = openConversation(page);
  const heading = conversation.title;
  await expect(heading).toContainText("Escalated");
  const transcript = conversation.transcript;
  await expect(transcript).toContainText("I want to talk to a human");
  // The agent's tool call is folded under the turn's Details.
  const turn = transcript
    .getByRole("listitem")
    .filter({ has: page.locator("details") })
    .last();
  await expect(turn.getByText("request_human")).toBeHidden();
  await turn.getByText("Details", { exact: true }).click();
  await expect(turn.getByText("request_human")).toBeVisible();
  await expect(conversation.state).toContainText("Waiting for a person");

  // The admin replies as a team member.
  await conversation.reply.getByLabel("Your reply").fill(reply);
  await conversation.reply.getByRole("button", { name: "Send reply" }).click();
  await expect(conversation.status).toHaveText("Reply sent.");
  await expect(conversation.reply.getByLabel("Your reply")).toHaveValue("");
  const teamMessage = transcript.getByRole("listitem").filter({ hasText: reply });
  await expect(teamMessage).toContainText("Team member");

  // An image in a reply is a link to it, never loaded: its address could carry the conversation away.
  const imageHost = "images.invalid";
  const imageRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).hostname === imageHost) imageRequests.push(request.url());
  });
  const imageUrl = `https://${imageHost}/pixel.png?visitor=${encodeURIComponent(visitorName)}`;
  await conversation.reply.getByLabel("Your reply").fill(`Here is where to click: ![refund button](${imageUrl})`);
  await conversation.reply.getByRole("button", { name: "Send reply" }).click();
  await expect(conversation.status).toHaveText("Reply sent.");
  const imageMessage = transcript.getByRole("listitem").filter({ hasText: "Here is where to click" });
  await expect(imageMessage.getByRole("link", { name: "Image: refund button" })).toHaveAttribute("href", imageUrl);
  await expect(imageMessage.locator("img")).toHaveCount(0);
  expect(imageRequests).toEqual([]);
  await imageMessage.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, "reply-image-as-link-1280", { fullPage: false });

  // While escalated, the visitor's messages are stored for the person and the status stays.
  const waiting = await expectMessageResponse(
    await sendMessage(request, "demo", key, { message: "Thanks, when will I see it?", conversationId: handoff.conversationId }),
  );
  expect(waiting.status).toBe("escalated");

  // Hand back to the agent.
  await conversation.screen.getByRole("button", { name: "Hand back to agent" }).click();
  await expect(conversation.status).toHaveText(/^Handed back to the agent/);
  await expect(heading).toContainText("Active");
  await expect(conversation.screen.getByRole("button", { name: "Hand back to agent" })).toBeHidden();
  // Its button gone, the focus is not dropped to the page: it is on the first action left.
  await expect(conversation.screen.getByRole("button", { name: "Take over" })).toBeFocused();
  await expect(conversation.state).toContainText("The agent is answering.");

  const back = await expectMessageResponse(
    await sendMessage(request, "demo", key, { message: "How do I get a refund?", conversationId: handoff.conversationId }),
  );
  expect(back.status).toBe("active");
  expect(back.handoffRequested).toBe(false);

  // The list agrees: no longer among the escalated ones, listed as active.
  await page.goto("/panel/conversations?status=escalated");
  await expect(page.getByRole("heading", { level: 1, name: "Conversations" })).toBeVisible();
  await expect(page.getByText("Loading conversations…")).toBeHidden();
  await expect(page.getByRole("link", { name: visitorName })).toHaveCount(0);
  await page.goto("/panel/conversations?status=active&agent=demo");
  const active = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: visitorName }) });
  await expect(active).toContainText("Active");
  await expect(active).not.toHaveClass(/item-escalated/);
});
