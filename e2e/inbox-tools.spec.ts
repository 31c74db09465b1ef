// The inbox's working tools in Chromium: a saved reply with placeholders, inserted and sent; an
// internal note that the team sees and the HTTP API's next answer never mentions; the filtered
// export downloads with the conversation in it. Screenshots at desktop and phone width.
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueSuffix } from "./support.ts";
import { openConversation } from "./workspace.ts";

async function apiConversation(page: Page, baseURL: string | undefined, message: string, visitor: Record<string, string>) {
  const issued = await page.request.post("/api/agents/demo/http-api-key", { headers: { origin: baseURL ?? "" } });
  expect(issued.status()).toBe(201);
  const { key } = (await issued.json()).data as { key: string };
  const sent = await page.request.post("/api/agent/demo/messages", {
    headers: { authorization: `Bearer ${key}` },
    data: { message, visitor },
  });
  expect(sent.status()).toBe(200);
  return { key, conversationId: ((await sent.json()) as { conversationId: string }).conversationId };
}

test("a saved reply fills in the visitor's name; a note stays with the team; the export downloads", async ({ page, baseURL }, testInfo) => {
  await signIn(page);
  const suffix = uniqueSuffix();
  const { key, conversationId } = await apiConversation(page, baseURL, `My order ${suffix} never arrived`, { name: "Grace" });

  // A saved reply, written once on its page.
  await page.goto("/panel/conversations");
  await page.getByRole("link", { name: "Saved replies" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Saved replies" })).toBeVisible();
  const form = page.getByRole("region", { name: "Add a saved reply" });
  await form.getByLabel("Title").fill(`Order check ${suffix}`);
  await form.getByLabel("Reply").fill("Hi {{visitor.nmae}}, we are on it.");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(form.getByText("Unknown placeholder {{visitor.nmae}}: use {{visitor.name}}")).toBeVisible();
  await expect(form.getByLabel("Reply")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Reply").fill("Hi {{visitor.name|there}}, I am checking your order with the courier now.");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved reply added.");
  await expect(page.getByRole("heading", { level: 3, name: `Order check ${suffix}` })).toBeVisible();
  await keepScreenshot(page, testInfo, "saved-replies");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "saved-replies-390", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Inserted in the conversation, filled in for Grace, and sent.
  await page.goto(`/panel/conversations/${conversationId}`);
  const conversation = openConversation(page);
  const handling = conversation.reply;
  await handling.getByLabel("Insert a saved reply").selectOption({ label: `Order check ${suffix}` });
  await expect(handling.getByLabel("Your reply")).toHaveValue("Hi Grace, I am checking your order with the courier now.");
  await handling.getByRole("button", { name: "Send reply" }).click();
  await expect(conversation.status).toHaveText("Reply sent.");

  // An internal note: in the timeline, marked as the team's only.
  await handling.getByRole("radio", { name: "Internal note" }).check();
  await handling.getByLabel("Your note").fill(`Courier ticket ${suffix}-NOTE`);
  await handling.getByRole("button", { name: "Add note" }).click();
  await expect(conversation.status).toHaveText("Note added. Only your team sees it.");
  const transcript = page.getByRole("region", { name: "Transcript" });
  const note = transcript.locator(".message-note");
  await expect(note).toContainText(`Courier ticket ${suffix}-NOTE`);
  await expect(note).toContainText("Internal note");
  await expect(note).toContainText("only your team sees this");
  await keepScreenshot(page, testInfo, "conversation-note");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "conversation-note-390", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The HTTP API's view of the conversation never holds the note: the escalated turn answers as the spec says.
  const next = await page.request.post("/api/agent/demo/messages", {
    headers: { authorization: `Bearer ${key}` },
    data: { message: "Any news?", conversationId },
  });
  expect(next.status()).toBe(200);
  expect(JSON.stringify(await next.json())).not.toContain("NOTE");

  // The export of this search downloads, with the conversation and without the note.
  await page.goto(`/panel/conversations?q=${suffix}`);
  await expect(page.getByRole("list", { name: "Conversations" }).getByRole("listitem")).toHaveCount(1);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^parley-conversations-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv).toContain(`My order ${suffix} never arrived`);
  expect(csv).toContain("Hi Grace, I am checking your order with the courier now.");
  expect(csv).not.toContain("-NOTE");
  expect(
    csv
      .trim()
      .split("\n")
      .filter((line) => line.includes(conversationId)).length,
  ).toBeGreaterThanOrEqual(3);
});
