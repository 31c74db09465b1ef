// An admin teaches an agent a word of its visitors: the agent does not know "kontoauszug", the
// admin adds "kontoauszug, invoice" to the agent's synonyms in its settings, and the very next
// API turn answers from the invoices article. A line with one phrase is refused next to the field.
import { expect, test } from "@playwright/test";
import {
  agentSettings,
  agentTab,
  closeNewKeyDialog,
  keepScreenshot,
  openAgents,
  openNewKeyDialog,
  sendMessage,
  signIn,
  uniqueSuffix,
} from "./support.ts";

interface Reply {
  reply: string;
  richContent: Array<{ type: string; articles?: Array<{ id: string }> }>;
}

function citedArticles(body: Reply): string[] {
  return body.richContent.find((item) => item.type === "articles")?.articles?.map((article) => article.id) ?? [];
}

test("add a synonym to an agent and see the next API answer change", async ({ page, request }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-synonyms-${suffix}`;
  await signIn(page);
  await openAgents(page);
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E synonyms ${suffix}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const settings = await agentTab(page, "Answers");
  const linked = settings.getByRole("region", { name: "Linked sources" });
  await linked.getByRole("checkbox", { name: /^Billing/ }).check();
  await expect(linked.getByRole("status")).toHaveText("Sources updated.");

  const channels = await agentSettings(page, "Channels");
  await channels.getByRole("checkbox", { name: "HTTP API enabled" }).check();
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");
  const { key } = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, key);

  const question = { message: "where can I download my kontoauszug" };
  const before = await sendMessage(request, agentId, key, question);
  expect(before.status()).toBe(200);
  const unknown = (await before.json()) as Reply;
  expect(unknown.reply).toContain("I don't know");
  expect(citedArticles(unknown)).toEqual([]);

  // One phrase alone is not a group: refused next to the field, nothing saved.
  const answerSettings = await agentSettings(page, "Answers");
  const synonyms = answerSettings.getByLabel("Synonyms");
  await synonyms.fill("kontoauszug");
  await answerSettings.getByRole("button", { name: "Save answer settings" }).click();
  await expect(synonyms).toHaveAttribute("aria-invalid", "true");
  await expect(answerSettings).toContainText("Line 1: give at least two phrases separated by commas");

  await synonyms.fill("kontoauszug,   invoice\n\nsign in, log in");
  await answerSettings.getByRole("button", { name: "Save answer settings" }).click();
  await expect(answerSettings.getByRole("status")).toHaveText("Answer settings saved.");
  await page.reload();
  await expect(answerSettings.getByLabel("Synonyms")).toHaveValue("kontoauszug, invoice\nsign in, log in");
  await keepScreenshot(page, testInfo, "agent-settings-synonyms-1280");

  const after = await sendMessage(request, agentId, key, question);
  expect(after.status()).toBe(200);
  const answered = (await after.json()) as Reply;
  expect(citedArticles(answered)[0]).toBe("art-invoices");
  expect(answered.reply).toContain("Download PDF");
});
