// A site on another origin embeds the chat widget with one script tag. The admin
// allows that origin on the demo agent in the panel; the visitor gets a knowledge answer with an
// article card, asks for a person and sees the handoff notice; the admin's reply typed in the panel
// reaches the open widget live. A site whose origin is not allowed gets no working chat.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { visitorTag } from "@parley/core/browser";
import { type Browser, expect, type Page, test, type WebSocket } from "@playwright/test";
import { E2E_PORT } from "./playwright.config.ts";
import { agentSettings, keepScreenshot, openAgents, signIn } from "./support.ts";
import { inboxRow, openConversation, openFilters } from "./workspace.ts";

const APP_ORIGIN = `http://localhost:${E2E_PORT}`;
/** Nobody has joined yet: a person will reply (with the team's usual reply time once it has answered five handoffs). */
const HANDOFF_NOTICE = /^A person will reply here(; usually within \d+ (minute|minutes|hour|hours|days))?\.$/;

interface Site {
  origin: string;
  close(): Promise<void>;
}

/** A page that embeds the widget exactly as the README says, served by its own server on 127.0.0.1. */
function embeddingPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<main><h1>${title}</h1><p>A customer's website, on its own origin, with the Parley widget.</p></main>
<script src="${APP_ORIGIN}/widget.js" data-agent-id="demo" async></script>
</body>
</html>`;
}

async function startSite(title: string): Promise<Site> {
  const html = embeddingPage(title);
  const server: Server = createServer((request, response) => {
    if (request.url === "/" || request.url === "/index.html") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(html);
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("Not found");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Opens the site in a fresh browser context (its own localStorage: no resume token). */
async function visit(browser: Browser, site: Site) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sockets: WebSocket[] = [];
  const received: Array<{ type?: string }> = [];
  page.on("websocket", (socket) => {
    sockets.push(socket);
    socket.on("framereceived", (frame) => received.push(JSON.parse(String(frame.payload)) as { type?: string }));
  });
  await page.goto(`${site.origin}/`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return { page, sockets, received, close: () => context.close() };
}

/** The widget's parts, found by role and label (Playwright's locators pierce its open shadow root). */
function widget(page: Page) {
  const panel = page.getByRole("dialog", { name: "Chat with us" });
  return {
    panel,
    log: panel.getByRole("log", { name: "Conversation" }),
    input: panel.getByLabel("Your message"),
  };
}

function connectionState(page: Page) {
  return page.evaluate(() => {
    const parley = (window as unknown as { parley?: { connection: { state: string; conversationId: string | null } | null } }).parley;
    return { state: parley?.connection?.state ?? null, conversationId: parley?.connection?.conversationId ?? null };
  });
}

let allowedSite: Site;
let otherSite: Site;

test.beforeAll(async () => {
  [allowedSite, otherSite] = await Promise.all([startSite("Allowed customer site"), startSite("Unlisted customer site")]);
});

test.afterAll(async () => {
  await Promise.all([allowedSite?.close(), otherSite?.close()]);
});

test("a site on an allowed origin chats through the widget; the admin's reply arrives live", async ({ page, browser }, testInfo) => {
  // The admin allows the site's origin on the demo agent (adding to its list: the app's own origin
  // stays, so the help pages keep their widget).
  await signIn(page);
  await openAgents(page);
  await page.getByRole("link", { name: "Acme Cloud help assistant" }).click();
  await expect(page).toHaveURL("/panel/agents/demo");
  const settings = await agentSettings(page, "Channels");
  const origins = settings.getByLabel("Allowed origins");
  await expect(origins).toHaveValue(new RegExp(`^${APP_ORIGIN}$`, "m"));
  const current = (await origins.inputValue()).split("\n").filter((line) => line.trim() !== "");
  if (!current.includes(allowedSite.origin)) await origins.fill([...current, allowedSite.origin].join("\n"));
  await settings.getByRole("button", { name: "Save channel settings" }).click();
  await expect(settings.getByRole("status")).toHaveText("Channel settings saved.");
  // Stored: a reload (the Channels tab stays open) shows both origins.
  await page.reload();
  await expect(settings.getByLabel("Allowed origins")).toHaveValue(new RegExp(`^${allowedSite.origin}$`, "m"));
  await expect(settings.getByLabel("Allowed origins")).toHaveValue(new RegExp(`^${APP_ORIGIN}$`, "m"));

  const visitor = await visit(browser, allowedSite);
  const site = visitor.page;
  try {
    const chat = widget(site);
    // Nothing connects before the visitor opens the chat; the widget lives in an open shadow root.
    expect(await site.evaluate(() => document.querySelector("[data-parley-widget]")?.shadowRoot?.mode)).toBe("open");
    const launcher = site.getByRole("button", { name: "Open chat" });
    await expect(launcher).toHaveAttribute("aria-expanded", "false");
    await expect(chat.panel).toBeHidden();
    expect(visitor.sockets).toHaveLength(0);

    await launcher.click();
    await expect(chat.panel).toBeVisible();
    // The launcher now closes the chat (like the panel's own close button) and says it is expanded.
    await expect(site.getByRole("button", { name: "Close chat", expanded: true })).toBeVisible();
    await expect(chat.input).toBeFocused();
    await expect.poll(async () => (await connectionState(site)).state).toBe("open");
    expect(visitor.sockets.map((socket) => socket.url())).toEqual([`ws://localhost:${E2E_PORT}/ws`]);

    // A knowledge answer with an article card linking to the refunds article.
    await chat.input.fill("How do I get a refund?");
    await chat.input.press("Enter");
    await expect(chat.input).toHaveValue("");
    await expect(chat.log.getByRole("listitem").filter({ hasText: "How do I get a refund?" })).toBeVisible();
    const article = { name: "Refund policy and how to request a refund" };
    const answer = chat.log.getByRole("listitem").filter({ has: site.getByRole("link", article) });
    await expect(answer).toContainText("Assistant");
    await expect(answer).toContainText("From “Refund policy and how to request a refund”");
    await expect(answer.getByRole("link", article)).toHaveAttribute("href", `${APP_ORIGIN}/help/demo/articles/refunds`);
    const { conversationId } = await connectionState(site);
    expect(conversationId).toBeTruthy();

    // Asking for a person: the agent's reply and the handoff notice.
    await chat.input.fill("I want to talk to a human");
    await chat.input.press("Enter");
    await expect(chat.log.getByRole("listitem").filter({ hasText: "asked a person from our team to take over" })).toBeVisible();
    await expect(chat.log.getByRole("listitem").filter({ hasText: HANDOFF_NOTICE })).toHaveCount(1);

    // The admin finds the escalated widget conversation in the panel and replies.
    await page.getByRole("navigation", { name: "Panel" }).getByRole("link", { name: "Conversations" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Conversations" })).toBeVisible();
    await openFilters(page);
    await page.getByLabel("Status").selectOption("escalated");
    await expect(page).toHaveURL(/\/panel\/conversations\?status=escalated$/);
    const href = `/panel/conversations/${conversationId}?status=escalated`;
    const item = inboxRow(page, conversationId ?? "");
    await expect(item).toContainText("Escalated");
    await expect(item).toContainText("Widget");
    // A widget visitor without a name or email is named by the page the conversation started on.
    await item.getByRole("link", { name: `Visitor ${visitorTag(conversationId ?? "")} on ${new URL(allowedSite.origin).host}` }).click();
    await expect(page).toHaveURL(href);
    const conversation = openConversation(page);
    const transcript = conversation.transcript;
    await expect(transcript).toContainText("How do I get a refund?");
    await expect(transcript).toContainText("I want to talk to a human");
    await expect(conversation.state).toContainText("Waiting for a person");
    const reply = "Hi, this is Sam from support. I can help with your refund right here.";
    await conversation.reply.getByLabel("Your reply").fill(reply);
    await conversation.reply.getByRole("button", { name: "Send reply" }).click();
    await expect(conversation.status).toHaveText("Reply sent.");

    // Live in the widget, with no reload: the reply took the conversation over, so the visitor
    // sees who joined, and the reply is marked with their name.
    await expect(chat.log.getByRole("listitem").filter({ hasText: "Demo admin from our team has joined the conversation." })).toBeVisible();
    const teamMessage = chat.log.getByRole("listitem").filter({ hasText: reply });
    await expect(teamMessage).toBeVisible();
    await expect(teamMessage).toContainText("Demo admin");
    expect(visitor.sockets).toHaveLength(1);
    await keepScreenshot(site, testInfo, "widget-open", { fullPage: false });

    // Escape closes the panel and gives focus back to the launcher.
    await chat.input.press("Escape");
    await expect(chat.panel).toBeHidden();
    await expect(site.getByRole("button", { name: "Open chat" })).toBeFocused();
  } finally {
    await visitor.close();
  }
});

test("a site whose origin is not allowed gets no working chat", async ({ browser }) => {
  const visitor = await visit(browser, otherSite);
  const site = visitor.page;
  try {
    const chat = widget(site);
    // The script itself loads anywhere: the launcher is there.
    await site.getByRole("button", { name: "Open chat" }).click();
    await expect(chat.panel).toBeVisible();

    // The server closes the socket with 4403 after the hello; the SDK stops for good and the widget says so.
    await expect(chat.log.getByRole("listitem").filter({ hasText: "The chat is unavailable (Origin not allowed)." })).toBeVisible();
    expect(await connectionState(site)).toEqual({ state: "closed", conversationId: null });
    expect(visitor.sockets).toHaveLength(1);
    await expect.poll(() => visitor.sockets[0]?.isClosed()).toBe(true);
    // It never got a conversation: no ready frame (nor anything else) came back.
    expect(visitor.received).toEqual([]);

    // A message goes nowhere: no new socket, no answer.
    await chat.input.fill("How do I get a refund?");
    await chat.input.press("Enter");
    await expect(chat.log.getByRole("listitem").filter({ hasText: "How do I get a refund?" })).toBeVisible();
    expect(visitor.sockets).toHaveLength(1);
    expect((await connectionState(site)).state).toBe("closed");
    await expect(chat.log.getByRole("link")).toHaveCount(0);
    await expect(chat.log.getByText("Assistant")).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});
