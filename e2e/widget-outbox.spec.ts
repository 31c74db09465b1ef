// The widget's socket dies right after the visitor sent a message, before the server's ack: the
// page's socket is a Playwright route in front of the real one, which swallows the message (lost
// on the way) or delivers it and then cuts the page off before the ack and reply come back (lost on
// the way back). Either way the message reads "Sending…", then "Not sent — retrying" while the
// chat is offline; after the reconnect it is stored exactly once (the server's `ready` on resume
// lists it once), answered once, and the visitor sees it once. A conversation's first message cut
// off before the server's `ready` (which names the conversation it started) joins that conversation
// after the reconnect: one conversation, answered once. Screenshots at 1280 and 390 px.
import { expect, type Page, type TestInfo, test, type WebSocketRoute } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { keepScreenshot } from "./support.ts";

const FIRST = "How do I reset my password?";
const QUESTION = "How do I get a refund?";
const SENDING = "Sending…";
const RETRYING = "Not sent — retrying";

type Cut = "before the server" | "before the ack";

/**
 * The widget's sockets go through a proxy: the first one, once `cut.armed`, swallows the message
 * of `question` (or delivers it and then drops whatever the server answers, kept in `dropped`), and
 * closes when `cut.close()` is called. Sockets after it pass everything.
 */
async function routeWidgetSocket(page: Page, how: Cut, question = QUESTION) {
  const cut = { armed: false, sent: [] as string[], dropped: [] as string[], close: async () => {} };
  let sockets = 0;
  await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    const first = ++sockets === 1;
    let deaf = false;
    server.onMessage((message) => {
      if (!deaf) ws.send(message);
      else cut.dropped.push(String(message));
    });
    ws.onMessage((message) => {
      const text = String(message);
      const isQuestion = first && cut.armed && text.includes(question);
      if (isQuestion) cut.sent.push(text);
      if (isQuestion && how === "before the ack") deaf = true;
      if (!isQuestion || how === "before the ack") server.send(message);
    });
    if (first) cut.close = () => ws.close({ code: 4000, reason: "Connection lost" });
  });
  return cut;
}

/** What the server stored: a fresh socket resuming the conversation lists its messages in `ready`. */
/** The demo help centre's chat, opened: its dialog, log and message box, and the visitor's own messages by text. */
async function openDemoChat(page: Page) {
  await page.goto("/help/demo");
  await page.getByRole("button", { name: "Open chat" }).click();
  const chat = page.getByRole("dialog", { name: "Chat with us" });
  const log = chat.getByRole("log", { name: "Conversation" });
  const input = chat.getByLabel("Your message");
  const mine = (text: string) => log.locator(".msg.user").filter({ hasText: text });
  return { chat, log, input, mine };
}

async function storedMessages(page: Page): Promise<Array<{ role: string; text: string }>> {
  return page.evaluate(async () => {
    const token = localStorage.getItem("parley:demo:resume");
    const socket = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`, "parley.v1");
    await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
    const ready = new Promise<{ messages: Array<{ role: string; text: string }> }>((resolve) =>
      socket.addEventListener("message", (event) => {
        const frame = JSON.parse(String(event.data));
        if (frame.type === "ready") resolve(frame);
      }),
    );
    socket.send(JSON.stringify({ type: "hello", agentId: "demo", resumeToken: token }));
    const { messages } = await ready;
    socket.close();
    return messages.map(({ role, text }) => ({ role, text }));
  });
}

/** A screenshot at 1280 and 390 px; axe-core finds nothing at either. */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await keepScreenshot(page, testInfo, `${name}-${width}`, { fullPage: false });
    expect(await axeViolations(page), `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

for (const how of ["before the server", "before the ack"] as const) {
  test(`a message whose socket is cut ${how} arrives exactly once after the reconnect, and shows once`, async ({
    browser,
    baseURL,
  }, testInfo) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    try {
      const cut = await routeWidgetSocket(page, how);
      const { chat, log, input, mine } = await openDemoChat(page);

      // A conversation to come back to (a first message has no resume token to reconnect with yet).
      await input.fill(FIRST);
      await input.press("Enter");
      await expect(log.getByRole("link", { name: /How to reset your password/ }).first()).toBeVisible();
      await expect(mine(FIRST)).toHaveText(FIRST);

      cut.armed = true;
      await input.fill(QUESTION);
      await input.press("Enter");
      // The words left the box for the conversation, where they wait for the server.
      await expect(input).toHaveValue("");
      await expect(mine(QUESTION)).toContainText(SENDING);
      expect(cut.sent).toHaveLength(1);
      if (how === "before the server") await shoot(page, testInfo, "widget-outbox-sending");

      await cut.close();
      await expect(chat.getByRole("status")).toHaveText(/Can’t reach the chat right now — retrying in \d+ s/);
      await expect(mine(QUESTION)).toContainText(RETRYING);
      if (how === "before the server") await shoot(page, testInfo, "widget-outbox-offline");

      // Back (the backoff's first wait is about a second): sent again, stored, answered.
      const refundAnswer = log.locator(".msg.agent").filter({ has: page.getByRole("link", { name: /Refund policy/ }) });
      await expect(refundAnswer).toHaveCount(1, { timeout: 20_000 });
      await expect(mine(QUESTION)).toHaveText(QUESTION);
      await expect(chat.getByRole("status")).toHaveText("");

      // Exactly once: on the screen and in what the server stored; answered once.
      await page.waitForTimeout(1_000);
      await expect(mine(QUESTION)).toHaveCount(1);
      await expect(refundAnswer).toHaveCount(1);
      const stored = await storedMessages(page);
      expect(stored.filter((message) => message.text === QUESTION)).toEqual([{ role: "user", text: QUESTION }]);
      expect(stored.map((message) => message.role)).toEqual(["user", "agent", "user", "agent"]);
    } finally {
      await context.close();
    }
  });
}

test("a first message whose socket is cut before the server's ready joins the conversation it started, once", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    const cut = await routeWidgetSocket(page, "before the ack", FIRST);
    cut.armed = true;
    const { chat, log, input, mine } = await openDemoChat(page);

    await input.fill(FIRST);
    await input.press("Enter");
    await expect(mine(FIRST)).toContainText(SENDING);
    // The server stored it and started a conversation; the `ready` naming it never reaches the page.
    const startedReady = async () =>
      cut.dropped.map((frame) => JSON.parse(frame)).find((frame) => frame.type === "ready" && frame.conversationId !== null);
    await expect.poll(async () => (await startedReady())?.conversationId ?? null).not.toBeNull();
    const started: string = (await startedReady()).conversationId;
    await cut.close();
    await expect(mine(FIRST)).toContainText(RETRYING);

    // Back: sent again without a conversation, it joins the one it started, answered once.
    const resetAnswer = log.locator(".msg.agent").filter({ has: page.getByRole("link", { name: /How to reset your password/ }) });
    await expect(resetAnswer).toHaveCount(1, { timeout: 20_000 });
    await expect(mine(FIRST)).toHaveText(FIRST);
    await expect(chat.getByRole("status")).toHaveText("");
    await page.waitForTimeout(1_000);
    await expect(mine(FIRST)).toHaveCount(1);
    await expect(resetAnswer).toHaveCount(1);
    const conversationId = () =>
      page.evaluate(
        () => (window as unknown as { parley: { connection: { conversationId: string | null } } }).parley.connection.conversationId,
      );
    expect(await conversationId()).toBe(started);
    expect(await storedMessages(page)).toEqual([
      { role: "user", text: FIRST },
      { role: "agent", text: expect.any(String) },
    ]);
    await shoot(page, testInfo, "widget-outbox-first-message");

    // The visitor goes on in that conversation.
    await input.fill(QUESTION);
    await input.press("Enter");
    await expect(log.locator(".msg.agent").filter({ has: page.getByRole("link", { name: /Refund policy/ }) })).toHaveCount(1);
    expect(await conversationId()).toBe(started);
    expect((await storedMessages(page)).map((message) => message.role)).toEqual(["user", "agent", "user", "agent"]);
  } finally {
    await context.close();
  }
});
