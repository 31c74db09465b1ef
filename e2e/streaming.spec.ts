// An LLM agent's answer streams into the widget. The admin sets a new agent to the LLM engine in
// the panel (linked to the Getting started articles, its site allowed, and allowed to answer beyond
// the articles); a visitor on that site asks; the fake OpenAI-compatible server (e2e/fake-llm.ts,
// the app's LLM settings) streams the answer and pauses mid-way, so the widget shows the partial
// answer, then, released, the complete one with the article it cited as a card.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { E2E_LLM_URL, E2E_PORT } from "./playwright.config.ts";
import {
  agentSettings,
  agentTab,
  closeNewKeyDialog,
  keepScreenshot,
  openAgents,
  openNewKeyDialog,
  signIn,
  uniqueSuffix,
} from "./support.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;
const PIECES = ["To reset your password, ", "open the sign-in page ", "and choose Forgot password [1]."];
const PARTIAL = "To reset your password, open the sign-in page";
const COMPLETE = "To reset your password, open the sign-in page and choose Forgot password.";

/** A customer's site on its own origin that embeds the widget for `agentId`. */
async function startSite(agentId: string): Promise<{ origin: string; close(): Promise<void> }> {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Acme support</title></head>
<body><main><h1>Acme support</h1></main>
<script src="${APP_ORIGIN}/widget.js" data-agent-id="${agentId}" async></script>
</body>
</html>`;
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function fakeLlm(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${E2E_LLM_URL}${path}`, {
    method: body === undefined && path === "/fake/requests" ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return response.json();
}

async function createLlmAgent(page: Page, agentId: string, siteOrigin: string, options: { httpApi?: boolean } = {}): Promise<void> {
  const createForm = page.getByRole("region", { name: "Create an agent" });
  await createForm.getByLabel("Name").fill(`E2E streaming ${agentId}`);
  await createForm.getByLabel("Agent ID (optional)").fill(agentId);
  await createForm.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(`/panel/agents/${agentId}`);

  const answers = await agentTab(page, "Answers");
  const sources = answers.getByRole("region", { name: "Linked sources" });
  await sources.getByRole("checkbox", { name: /^Getting started/ }).check();
  await expect(sources.getByRole("status")).toHaveText("Sources updated.");

  const beyond = answers.getByRole("checkbox", { name: "LLM may answer beyond the help articles" });
  await expect(beyond).not.toBeChecked(); // grounded by default
  await answers.getByLabel(/^LLM — /).check();
  await beyond.check();
  const answerSettings = answers.getByRole("region", { name: "Answers", exact: true });
  await answerSettings.getByRole("button", { name: "Save answer settings" }).click();
  await expect(answerSettings.getByRole("status")).toHaveText("Answer settings saved.");

  const channels = await agentSettings(page, "Channels");
  await channels.getByLabel("Allowed origins").fill(siteOrigin);
  if (options.httpApi) await channels.getByRole("checkbox", { name: "HTTP API enabled" }).check();
  await channels.getByRole("button", { name: "Save channel settings" }).click();
  await expect(channels.getByRole("status")).toHaveText("Channel settings saved.");
  await page.goto(`/panel/agents/${agentId}?tab=answers`);
  await expect(answers.getByLabel(/^LLM — /)).toBeChecked();
  await expect(beyond).toBeChecked();
}

test("the widget shows an LLM agent's answer while it streams, then the complete answer with its article", async ({
  page,
  browser,
}, testInfo) => {
  const agentId = `e2e-stream-${uniqueSuffix()}`;
  const site = await startSite(agentId);
  try {
    await signIn(page);
    await openAgents(page);
    await createLlmAgent(page, agentId, site.origin);
    await fakeLlm("/fake/enqueue", [
      {
        kind: "text",
        text: PIECES.join(""),
        pieces: PIECES,
        pauseAfter: 2,
        usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 },
      },
    ]);

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${site.origin}/`);
    await visitor.getByRole("button", { name: "Open chat" }).click();
    const panel = visitor.getByRole("dialog", { name: "Chat with us" });
    const log = panel.getByRole("log", { name: "Conversation" });
    await panel.getByLabel("Your message").fill("How do I reset my password?");
    await panel.getByLabel("Your message").press("Enter");

    // The model has paused mid-answer: the visitor already reads the first part of it.
    const reply = log.locator("li.msg.agent");
    await expect(reply).toHaveText(`Assistant${PARTIAL}`);
    await expect(log).not.toContainText("Forgot password");
    await expect(log.getByRole("link", { name: "How to reset your password" })).toHaveCount(0);
    await keepScreenshot(visitor, testInfo, "widget-streaming-partial");

    await fakeLlm("/fake/release", {});
    await expect(reply).toContainText(COMPLETE);
    await expect(reply).toHaveCount(1);
    await expect(log).not.toContainText("[1]");
    await expect(log.getByRole("link", { name: "How to reset your password" })).toBeVisible();
    await keepScreenshot(visitor, testInfo, "widget-streaming-complete");

    // The model was given the retrieved passage as a source, under the rule the setting chose.
    const requests = (await fakeLlm("/fake/requests")) as Array<{ body: { messages: Array<{ role: string; content: string }> } }>;
    const system = requests.at(-1)?.body.messages.find((message) => message.role === "system")?.content ?? "";
    expect(system).toContain('[1] "How to reset your password"');
    expect(system).toContain("you may answer from general knowledge");
    await visitorContext.close();
  } finally {
    await site.close();
  }
});

test("the HTTP API's streaming form sends the first pieces before the model has finished (production server)", async ({ page }) => {
  const agentId = `e2e-stream-api-${uniqueSuffix()}`;
  await signIn(page);
  await openAgents(page);
  await createLlmAgent(page, agentId, APP_ORIGIN, { httpApi: true });
  const { key } = await openNewKeyDialog(page);
  await closeNewKeyDialog(page, key);
  await fakeLlm("/fake/enqueue", [
    {
      kind: "text",
      text: PIECES.join(""),
      pieces: PIECES,
      pauseAfter: 2,
      usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 },
    },
  ]);

  const response = await fetch(`${APP_ORIGIN}/api/agent/${agentId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ message: "How do I reset my password?" }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let received = "";
  // The model is paused after two pieces: both events arrive all the same.
  while (!received.includes(" open the sign-in page")) received += decoder.decode((await reader.read()).value, { stream: true });
  expect(received).toBe(
    'event: message.delta\ndata: {"delta":"To reset your password,"}\n\nevent: message.delta\ndata: {"delta":" open the sign-in page"}\n\n',
  );

  await fakeLlm("/fake/release", {});
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) received += decoder.decode(chunk.value, { stream: true });
  const final = /event: message\ndata: (.*)\n\n$/.exec(received)?.[1];
  expect(JSON.parse(final ?? "null")).toMatchObject({
    reply: COMPLETE,
    richContent: [{ type: "articles", articles: [{ id: "art-reset-password", title: "How to reset your password" }] }],
    status: "active",
  });
});
