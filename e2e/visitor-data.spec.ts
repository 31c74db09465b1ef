// The visitor's data and deletions in Chromium: an admin exports a conversation's data, then erases
// it after typing the confirmation, and the transcript shows "Erased"; an admin deletes an article
// after a confirmation and its help page answers 404. Screenshots at desktop and phone width.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { keepScreenshot, signIn, uniqueSuffix } from "./support.ts";

test("an admin exports a visitor's data, erases it with a typed confirmation, and the transcript shows it erased", async ({
  page,
  baseURL,
}, testInfo) => {
  await signIn(page);
  const suffix = uniqueSuffix();
  const issued = await page.request.post("/api/agents/demo/http-api-key", { headers: { origin: baseURL ?? "" } });
  expect(issued.status()).toBe(201);
  const { key } = (await issued.json()).data as { key: string };
  const sent = await page.request.post("/api/agent/demo/messages", {
    headers: { authorization: `Bearer ${key}` },
    data: { message: `My parcel ${suffix} is late`, visitor: { name: `Erin ${suffix}`, email: `erin-${suffix}@example.com` } },
  });
  expect(sent.status()).toBe(200);
  const { conversationId } = (await sent.json()) as { conversationId: string };

  await page.goto(`/panel/conversations/${conversationId}`);
  const card = page.getByRole("region", { name: "Visitor's data" });
  const downloading = page.waitForEvent("download");
  await card.getByRole("link", { name: "Export this conversation" }).click();
  const download = await downloading;
  const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(exported.conversations[0].visitor.name).toBe(`Erin ${suffix}`);
  expect(exported.conversations[0].messages[0].text).toBe(`My parcel ${suffix} is late`);

  await card.getByRole("button", { name: "Erase visitor's data…" }).click();
  const dialog = page.getByRole("dialog", { name: "Erase the visitor's data?" });
  const erase = dialog.getByRole("button", { name: "Erase data" });
  await expect(erase).toBeDisabled();
  await dialog.getByLabel(/^Type ERASE/).fill("erase");
  await expect(erase).toBeDisabled();
  await dialog.getByLabel(/^Type ERASE/).fill("ERASE");
  expect((await axeViolations(page)).filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
  await keepScreenshot(page, testInfo, "visitor-erase-dialog");
  await erase.click();

  const transcript = page.getByRole("region", { name: "Transcript" });
  await expect(transcript.getByRole("status")).toContainText("The visitor's data was erased");
  await expect(transcript.locator(".message-user").first()).toContainText("Erased");
  await expect(page.getByText(`My parcel ${suffix} is late`)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Visitor", exact: true })).toContainText("Erased.");
  await expect(card.getByRole("status")).toHaveText("Erased 1 conversation.");
  expect((await axeViolations(page)).filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
  await keepScreenshot(page, testInfo, "visitor-erased");
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "visitor-erased-390");
});

test("an admin deletes an article after a confirmation and its help page answers 404", async ({ page, request }, testInfo) => {
  await signIn(page);
  const title = `Old shipping rates ${uniqueSuffix()}`;
  await page.goto("/panel/knowledge/articles/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Source").selectOption({ label: "Billing" });
  await page.getByLabel("Content (Markdown)").fill("Shipping costs 5 euros.");
  await page.getByRole("button", { name: "Create article" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const articleId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const helpPath = `/help/demo/articles/${articleId}`;
  const visibility = page.getByRole("region", { name: "Visibility" });
  await visibility.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(visibility.getByRole("status")).toHaveText("Published.");
  expect((await request.get(helpPath)).status()).toBe(200);

  const zone = page.getByRole("region", { name: "Delete this article" });
  await expect(zone).toContainText("its page answers 404");
  await zone.getByRole("button", { name: "Delete article…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this article?" });
  await expect(dialog).toContainText("This cannot be undone.");
  // Focus starts on Cancel: Enter never deletes by accident.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreenshot(page, testInfo, "article-delete-dialog-390", { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Delete article" }).click();

  await expect(page).toHaveURL(/\/panel\/knowledge\/sources\/src-billing$/);
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);
  expect((await request.get(helpPath)).status()).toBe(404);
});
