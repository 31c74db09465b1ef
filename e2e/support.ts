// Shared steps of the journeys: signing in, reading a key from the one-time dialog, calling the
// messages API and keeping screenshots under e2e/artifacts/screenshots (gitignored, kept by CI).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type APIResponse, type Browser, expect, type Page, type TestInfo } from "@playwright/test";
import { E2E_ADMIN } from "./playwright.config.ts";

export { E2E_ADMIN };

/** A suffix that keeps ids and names unique across runs and retries against the same server. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, "0")}`;
}

/** Signs in through the sign-in page and waits for the panel's home. */
export async function signIn(page: Page, password = E2E_ADMIN.password): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/panel$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

/** Opens the agent list from the panel's navigation (where the README's key steps begin). */
export async function openAgents(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
}

export type AgentTabName = "General" | "Answers" | "Widget & look" | "Channels" | "Limits" | "API key" | "Danger zone";

/** Shows a tab of the agent page whose page is open and gives its panel (one Save each). */
export async function agentTab(page: Page, name: AgentTabName) {
  const tab = page.getByRole("tablist", { name: "Agent settings" }).getByRole("tab", { name });
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
  return page.getByRole("tabpanel", { name });
}

/** Shows a settings tab of the agent page and gives its form's card (the tab's other cards have statuses of their own). */
export async function agentSettings(page: Page, name: "General" | "Answers" | "Channels" | "Limits") {
  return (await agentTab(page, name)).getByRole("region", { name, exact: true });
}

/** The region of the panel's agent page that manages the HTTP API key (on its API key tab). */
export function keyCard(page: Page) {
  return page.getByRole("region", { name: "HTTP API key" });
}

/**
 * Generates the key of the agent whose page is open (or rotates it, confirming the dialog),
 * reads it from the one-time dialog and closes the dialog. The caller may screenshot first.
 */
export async function openNewKeyDialog(page: Page): Promise<{ key: string; rotated: boolean }> {
  await agentTab(page, "API key");
  const card = keyCard(page);
  const action = card.getByRole("button", { name: /^(Generate|Rotate) key$/ });
  await expect(action).toBeEnabled();
  const rotated = (await action.textContent()) === "Rotate key";
  await action.click();
  if (rotated) {
    const confirm = page.getByRole("dialog", { name: "Rotate the API key?" });
    await expect(confirm).toContainText("stops working immediately");
    await confirm.getByRole("button", { name: "Yes, rotate key" }).click();
    await expect(confirm).toBeHidden();
  }
  const dialog = newKeyDialog(page);
  await expect(dialog).toBeVisible();
  const input = dialog.getByLabel("API key");
  await expect(input).toHaveValue(/^pk_[A-Za-z0-9_-]{43}$/);
  await expect(input).toBeFocused();
  return { key: await input.inputValue(), rotated };
}

export function newKeyDialog(page: Page) {
  return page.getByRole("dialog", { name: "Your new API key" });
}

export async function closeNewKeyDialog(page: Page, key: string): Promise<void> {
  await newKeyDialog(page).getByRole("button", { name: "Done" }).click();
  await expect(newKeyDialog(page)).toBeHidden();
  // The card now shows the key's last four characters, never the key.
  await expect(keyCard(page)).toContainText(`Key ending in •••• ${key.slice(-4)}`);
  await expect(keyCard(page)).not.toContainText(key);
}

export interface MessageBody {
  message: string;
  conversationId?: string;
  visitor?: { name?: string; email?: string; phone?: string };
  clientVariables?: Record<string, string>;
}

export function sendMessage(request: APIRequestContext, agentId: string, key: string, body: MessageBody): Promise<APIResponse> {
  return request.post(`/api/agent/${encodeURIComponent(agentId)}/messages`, {
    headers: { Authorization: `Bearer ${key}` },
    data: body,
  });
}

export interface MessageResponse {
  conversationId: string;
  reply: string;
  tokenUsage: number;
  toolCalls: Array<{ name: string; args: Record<string, unknown> }>;
  richContent: unknown[];
  handoffRequested: boolean;
  status: "active" | "escalated";
}

/** A 200 with exactly the seven fields of spec 2.2, each of its type. */
export async function expectMessageResponse(response: APIResponse): Promise<MessageResponse> {
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as MessageResponse;
  expect(Object.keys(body).sort()).toEqual(
    ["conversationId", "handoffRequested", "reply", "richContent", "status", "tokenUsage", "toolCalls"].sort(),
  );
  expect(typeof body.conversationId).toBe("string");
  expect(body.conversationId.length).toBeGreaterThan(0);
  expect(typeof body.reply).toBe("string");
  expect(body.reply.trim().length).toBeGreaterThan(0);
  expect(Number.isInteger(body.tokenUsage)).toBe(true);
  expect(body.tokenUsage).toBeGreaterThanOrEqual(0);
  expect(Array.isArray(body.toolCalls)).toBe(true);
  for (const call of body.toolCalls) {
    expect(typeof call.name).toBe("string");
    expect(typeof call.args).toBe("object");
    expect(call.args).not.toBeNull();
  }
  expect(Array.isArray(body.richContent)).toBe(true);
  expect(typeof body.handoffRequested).toBe("boolean");
  expect(["active", "escalated"]).toContain(body.status);
  return body;
}

/** Saves a screenshot under e2e/artifacts/screenshots and attaches it to the test's report. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = path.join(testInfo.project.testDir, "artifacts", "screenshots");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/**
 * Opens a help page as a new visitor would: a fresh browser context, so nothing comes from the
 * HTTP cache (help pages are cacheable for 30 seconds per visitor, spec 4.5.3).
 */
export async function visitAsNewVisitor(browser: Browser, baseURL: string | undefined, pathname: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const response = await page.goto(pathname);
  expect(response, `no response for ${pathname}`).not.toBeNull();
  return { page, response: response as NonNullable<typeof response>, close: () => context.close() };
}

/** Opens the widget on a page: its chat dialog, message box and conversation log. */
export async function openWidgetChat(site: Page) {
  await site.getByRole("button", { name: "Open chat" }).click();
  const chat = site.getByRole("dialog", { name: "Chat with us" });
  return { chat, input: chat.getByLabel("Your message"), log: chat.getByRole("log", { name: "Conversation" }) };
}
