// An admin creates an agent, enables its HTTP API, generates a key, reads it
// from the one-time dialog and an integrator uses it; rotating it stops the old key at once.
import { expect, test } from "@playwright/test";
import {
  agentTab,
  closeNewKeyDialog,
  expectMessageResponse,
  keepScreenshot,
  keyCard,
  newKeyDialog,
  openAgents,
  openNewKeyDialog,
  sendMessage,
  signIn,
  uniqueSuffix,
} from "./support.ts";

test("create an agent, enable the API, generate a key, call the messages API, rotate the key", async ({ page, request }, testInfo) => {
  const suffix = uniqueSuffix();
  const agentId = `e2e-keys-${suffix}`;
  const agentName = `E2E keys agent ${suffix}`;
  await signIn(page);
  await openAgents(page);

  // Create the agent.
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(agentName);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);
  await expect(page.getByRole("heading", { level: 1, name: agentName })).toBeVisible();
  await agentTab(page, "API key");
  await expect(keyCard(page)).toContainText("No key configured");
  await expect(keyCard(page)).toContainText("The HTTP API is disabled for this agent");

  // A new agent's API is off until the admin turns it on.
  const disabled = await sendMessage(request, agentId, "pk_anything", { message: "hi" });
  expect(disabled.status()).toBe(403);
  expect(await disabled.json()).toEqual({ error: "HTTP API disabled for this agent" });

  // The card's notice leads to the Channels tab, where the API is turned on.
  await keyCard(page).getByRole("button", { name: "Channels tab" }).click();
  const settings = page.getByRole("tabpanel", { name: "Channels" }).getByRole("region", { name: "Channels", exact: true });
  await settings.getByRole("checkbox", { name: "HTTP API enabled" }).check();
  await settings.getByRole("button", { name: "Save channel settings" }).click();
  await expect(settings.getByRole("status")).toHaveText("Channel settings saved.");
  await agentTab(page, "API key");
  await expect(keyCard(page)).not.toContainText("The HTTP API is disabled for this agent");

  // Enabled but no key yet.
  const noKey = await sendMessage(request, agentId, "pk_anything", { message: "hi" });
  expect(noKey.status()).toBe(401);
  expect(await noKey.json()).toEqual({ error: "HTTP API key not configured" });

  // Generate: no confirmation for a first key; the one-time dialog shows it, with a copy button.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const first = await openNewKeyDialog(page);
  expect(first.rotated).toBe(false);
  await expect(newKeyDialog(page)).toContainText("It won't be shown again");
  await newKeyDialog(page).getByRole("button", { name: "Copy" }).click();
  await expect(newKeyDialog(page).getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.key);
  await keepScreenshot(page, testInfo, "key-dialog", { fullPage: false });
  await closeNewKeyDialog(page, first.key);
  await expect(keyCard(page).getByRole("button", { name: "Rotate key" })).toBeVisible();

  // The integrator's call, with the key from the dialog.
  const turn = await expectMessageResponse(
    await sendMessage(request, agentId, first.key, {
      message: "How do I get a refund?",
      visitor: { name: "Ada", email: "ada@example.com" },
      clientVariables: { plan: "pro" },
    }),
  );
  expect(turn.handoffRequested).toBe(false);
  expect(turn.status).toBe("active");

  // Rotate: the confirm dialog warns that the old key stops at once; cancelling changes nothing.
  await keyCard(page).getByRole("button", { name: "Rotate key" }).click();
  const confirm = page.getByRole("dialog", { name: "Rotate the API key?" });
  await expect(confirm).toContainText(`(•••• ${first.key.slice(-4)}) stops working immediately`);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expectMessageResponse(
    await sendMessage(request, agentId, first.key, { message: "Still there?", conversationId: turn.conversationId }),
  );

  const second = await openNewKeyDialog(page);
  expect(second.rotated).toBe(true);
  expect(second.key).not.toBe(first.key);
  await keepScreenshot(page, testInfo, "key-dialog-rotated", { fullPage: false });
  await closeNewKeyDialog(page, second.key);

  // The old key is refused on the very next request; the new one works, same conversation.
  const old = await sendMessage(request, agentId, first.key, { message: "Hello again", conversationId: turn.conversationId });
  expect(old.status()).toBe(401);
  expect(old.headers()["www-authenticate"]).toMatch(/^Bearer/);
  expect(await old.json()).toEqual({ error: "Invalid bearer token" });

  const next = await expectMessageResponse(
    await sendMessage(request, agentId, second.key, { message: "Hello again", conversationId: turn.conversationId }),
  );
  expect(next.conversationId).toBe(turn.conversationId);

  // The agents list shows the new key's last four characters.
  await page.getByRole("link", { name: "← Agents" }).click();
  const item = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: agentName }) });
  await expect(item).toContainText("API enabled");
  await expect(item).toContainText("Key configured");
  await expect(item).toContainText(`key •••• ${second.key.slice(-4)}`);
});
