// The widget when it cannot connect. On a server of this file's own with 2 widget connections per IP
// and agent (WIDGET_CONNECTIONS_SCALE 0.1 of the default 20; the suite's own server allows 1,000),
// two other tabs of the visitor's network hold both: the launcher still shows, the open chat says
// in plain words why and when it tries again, keeps the typed message (nothing can be sent), and
// "Try now" tries at once; when a tab closes, the widget gets in by itself and the visitor chats.
// When that server restarts (1001, then nobody listening), the chat says it cannot reach the server
// and comes back once the server is up. The widget open, closed and offline passes axe-core at 1280
// and 390 px.
import { type Browser, expect, type Page, type TestInfo, test } from "@playwright/test";
import { axeViolations, WIDTHS } from "./axe.ts";
import { type ServerWithMail, startServerWithMail } from "./mail-server.ts";
import { keepScreenshot } from "./support.ts";

/** This file's server: nine ports past the suite's (the others' second servers take 3 and 5). */
const PORT_OFFSET = 9;
const LOW_CONNECTION_LIMIT = { WIDGET_CONNECTIONS_SCALE: "0.1" };
const TOO_MANY = /^Too many chats open from your network — trying again in \d+ s$/;
const UNREACHABLE = /^Can’t reach the chat right now — retrying in \d+ s$/;
const QUESTION = "How do I get a refund?";

let server: ServerWithMail | null = null;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startServerWithMail(PORT_OFFSET, LOW_CONNECTION_LIMIT);
});

test.afterAll(async () => {
  await server?.stop();
});

function base(): string {
  if (!server) throw new Error("the journey's server did not start");
  return server.base;
}

/** Other tabs of the visitor's network, each holding a widget connection (hello answered by ready). */
async function holdConnections(browser: Browser, count: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base()}/help/demo`);
  await page.evaluate(async (wanted) => {
    const url = `${location.origin.replace(/^http/, "ws")}/ws`;
    const held = await Promise.all(
      Array.from(
        { length: wanted },
        () =>
          new Promise<WebSocket>((resolve, reject) => {
            const socket = new WebSocket(url, "parley.v1");
            socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", agentId: "demo" })));
            socket.addEventListener("message", (event) => {
              if ((JSON.parse(String(event.data)) as { type?: string }).type === "ready") resolve(socket);
            });
            socket.addEventListener("close", (event) => reject(new Error(`closed with ${event.code}`)));
          }),
      ),
    );
    (window as unknown as { held: WebSocket[] }).held = held;
  }, count);
  return {
    /** One tab closes: its connection's slot is free. */
    releaseOne: () => page.evaluate(() => (window as unknown as { held: WebSocket[] }).held.pop()?.close()),
    close: () => context.close(),
  };
}

/** A visitor on the help centre in a fresh browser (no resume token), counting the widget's sockets. */
async function visitHelpCentre(browser: Browser, origin: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sockets: string[] = [];
  page.on("websocket", (socket) => sockets.push(socket.url()));
  await page.goto(`${origin}/help/demo`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const chat = page.getByRole("dialog", { name: "Chat with us" });
  return {
    page,
    sockets,
    launcher: page.getByRole("button", { name: "Open chat" }),
    chat,
    input: chat.getByLabel("Your message"),
    log: chat.getByRole("log", { name: "Conversation" }),
    status: chat.getByRole("status"),
    sendButton: chat.getByRole("button", { name: "Send", exact: true }),
    tryNow: chat.getByRole("button", { name: "Try now" }),
    close: () => context.close(),
  };
}

/** axe-core finds nothing on the page with the widget as it is, at 1280 and 390 px; a screenshot of each. */
async function checkWidget(page: Page, testInfo: TestInfo, name: string) {
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await keepScreenshot(page, testInfo, `${name}-${width}`, { fullPage: false });
    expect(await axeViolations(page), `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("too many chats from the visitor's network: the chat says so, keeps the message and gets in when a slot frees", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const otherTabs = await holdConnections(browser, 2);
  const visitor = await visitHelpCentre(browser, base());
  try {
    // The launcher is there before any socket (and stays whatever the socket does).
    await expect(visitor.launcher).toBeVisible();
    expect(visitor.sockets).toEqual([]);
    await visitor.launcher.click();
    await expect(visitor.chat).toBeVisible();
    await expect(visitor.status).toHaveText(TOO_MANY);
    await expect(visitor.page.getByRole("button", { name: "Close chat", expanded: true })).toBeVisible();
    // The message box says why nothing can be sent.
    await expect(visitor.input).toHaveAccessibleDescription(TOO_MANY);

    // Typed while offline: Enter sends nothing and the words stay in the box.
    await visitor.input.fill(QUESTION);
    await visitor.input.press("Enter");
    await expect(visitor.sendButton).toBeDisabled();
    await expect(visitor.input).toHaveValue(QUESTION);
    await expect(visitor.log.getByRole("listitem").filter({ hasText: QUESTION })).toHaveCount(0);

    // "Try now" tries at once (still refused: both slots are held).
    const tries = visitor.sockets.length;
    await visitor.tryNow.click();
    await expect.poll(() => visitor.sockets.length).toBeGreaterThan(tries);
    await expect(visitor.status).toHaveText(TOO_MANY);
    await checkWidget(visitor.page, testInfo, "widget-offline-too-many");

    // Another tab closes: at its next try the widget gets the slot by itself, and the message goes.
    await otherTabs.releaseOne();
    await expect(visitor.status).toHaveText("", { timeout: 40_000 });
    await expect(visitor.tryNow).toBeHidden();
    await expect(visitor.input).not.toHaveAccessibleDescription(TOO_MANY);
    await expect(visitor.sendButton).toBeEnabled();
    await expect(visitor.input).toHaveValue(QUESTION);
    await visitor.input.press("Enter");
    await expect(visitor.input).toHaveValue("");
    await expect(visitor.log.getByRole("listitem").filter({ hasText: QUESTION })).toBeVisible();
    const answer = visitor.log.getByRole("listitem").filter({ has: visitor.page.getByRole("link", { name: /Refund policy/ }) });
    await expect(answer).toContainText("Assistant");
  } finally {
    await visitor.close();
    await otherTabs.close();
  }
});

test("the server restarts: the chat says it cannot reach it, keeps the message and comes back", async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const visitor = await visitHelpCentre(browser, base());
  try {
    await visitor.launcher.click();
    await expect
      .poll(() => visitor.page.evaluate(() => (window as unknown as { parley: { connection: { state: string } } }).parley.connection.state))
      .toBe("open");
    // The connection's changes, as the SDK tells them.
    await visitor.page.evaluate(() => {
      const page = window as unknown as {
        changes: unknown[];
        parley: { connection: { on(event: string, listener: (change: unknown) => void): void } };
      };
      page.changes = [];
      page.parley.connection.on("connection", (change) => page.changes.push(change));
    });

    // The server stops gracefully (1001): the widget comes back within a second, finds nobody, and says so.
    await server?.stop();
    server = null;
    await expect(visitor.status).toHaveText(UNREACHABLE, { timeout: 20_000 });
    const changes = (await visitor.page.evaluate(() => (window as unknown as { changes: unknown[] }).changes)) as Array<{
      state: string;
      code?: number;
      retryInMs?: number;
    }>;
    expect(changes[0]).toMatchObject({ state: "connecting", code: 1001 });
    expect(changes[0]?.retryInMs).toBeLessThanOrEqual(1_000);
    await expect(visitor.launcher.or(visitor.page.getByRole("button", { name: "Close chat", expanded: true }))).toBeVisible();
    await visitor.input.fill(QUESTION);
    await expect(visitor.sendButton).toBeDisabled();
    await keepScreenshot(visitor.page, testInfo, "widget-offline-unreachable-1280", { fullPage: false });

    // Up again (a fresh data folder: the conversation starts anew). "Try now" spares the backoff's wait.
    server = await startServerWithMail(PORT_OFFSET, LOW_CONNECTION_LIMIT);
    await expect(async () => {
      if (await visitor.tryNow.isVisible()) await visitor.tryNow.click();
      await expect(visitor.status).toHaveText("", { timeout: 3_000 });
    }).toPass({ timeout: 60_000 });
    await expect(visitor.sendButton).toBeEnabled();
    await expect(visitor.input).toHaveValue(QUESTION);
    await visitor.input.press("Enter");
    await expect(visitor.log.getByRole("listitem").filter({ hasText: QUESTION })).toBeVisible();
    await expect(
      visitor.log.getByRole("listitem").filter({ has: visitor.page.getByRole("link", { name: /Refund policy/ }) }),
    ).toContainText("Assistant");
  } finally {
    await visitor.close();
  }
});

test("the widget closed, open and answering passes axe-core at 1280 and 390 px", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const visitor = await visitHelpCentre(browser, baseURL ?? "");
  try {
    await expect(visitor.launcher).toBeVisible();
    await checkWidget(visitor.page, testInfo, "widget-closed");
    await visitor.launcher.click();
    await expect(visitor.chat).toBeVisible();
    await expect
      .poll(() => visitor.page.evaluate(() => (window as unknown as { parley: { connection: { state: string } } }).parley.connection.state))
      .toBe("open");
    await checkWidget(visitor.page, testInfo, "widget-open");
    // An answer with an article card and "Helpful?" buttons.
    await visitor.input.fill(QUESTION);
    await visitor.input.press("Enter");
    await expect(visitor.log.getByRole("group", { name: "Was this answer helpful?" })).toBeVisible();
    await checkWidget(visitor.page, testInfo, "widget-answer");
  } finally {
    await visitor.close();
  }
});
