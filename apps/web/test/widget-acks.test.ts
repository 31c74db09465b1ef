// A visitor message sent with a clientMessageId over parley.v1 is acknowledged once stored, and a
// message sent again under the same id (the widget's outbox after a reconnect) is stored once:
// acknowledged again with the same message id and the same reply, no second turn, no second
// webhook event. A conversation's first message sent again by the page that sent it (its socket
// died before `ready` named the conversation) joins the conversation it started. Real sockets on
// two socket servers sharing one real PGlite database (two instances: the dedupe lives in the
// database, not in a connection's memory).
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerFrame } from "@parley/core/widget";
import type { TestContext } from "@parley/testing/context";
import { type FakeOpenAi, startFakeOpenAi, streamedText, textResponse } from "@parley/testing/fake-openai";
import { createMessagingContext } from "@parley/testing/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createWidgetSocketServer, type WidgetSocketServer } from "~/server/widget-socket.ts";

const ORIGIN = "http://shop.test:8080";
const SECRET = "widget-acks-secret-0123456789abcdef0123456789";
const AGENT = "w-acks";
/** An LLM agent: its fake model holds a reply until released, so two turns can be under way at once. */
const LLM_AGENT = "w-acks-llm";
/** An agent whose allowed origins change during a test. */
const ORIGIN_AGENT = "w-acks-origin";
const QUESTION = "How do I reset my password?";
const ID_RULE = "clientMessageId: must be 1 to 100 letters, digits, _ or -";

let ctx: TestContext;
let fake: FakeOpenAi;
const instances: Array<{ http: Server; sockets: WidgetSocketServer; url: string }> = [];

async function startInstance() {
  const sockets = createWidgetSocketServer({ getContext: async () => ctx, secret: () => SECRET });
  const http = createServer((_request, response) => response.writeHead(404).end());
  http.on("upgrade", (request, socket, head) => sockets.handleUpgrade(request, socket, head));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  instances.push({ http, sockets, url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws` });
}

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: "sk-test" });
  ctx = await createMessagingContext({ llm: { baseUrl: fake.baseUrl, apiKey: "sk-test", model: "fake-model", timeoutMs: 10_000 } });
  for (const [id, engine] of [
    [AGENT, "knowledge"],
    [LLM_AGENT, "llm"],
    [ORIGIN_AGENT, "knowledge"],
  ] as const) {
    await ctx.db.prisma.agent.create({
      data: {
        id,
        workspaceId: "ws-demo",
        name: `Acks agent ${id}`,
        engine,
        allowedOrigins: [ORIGIN],
        sources: { create: [{ sourceId: "src-start" }, { sourceId: "src-billing" }] },
      },
    });
  }
  await ctx.db.prisma.webhookEndpoint.create({
    data: { workspaceId: "ws-demo", url: "https://hooks.test/parley", eventTypes: ["conversation.message"], secret: "whsec-test" },
  });
  await startInstance();
  await startInstance();
});

afterAll(async () => {
  for (const { http, sockets } of instances) {
    await sockets.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
  await ctx?.close();
  await fake?.close();
});

interface Client {
  frames: ServerFrame[];
  closed: Promise<number>;
  send(frame: unknown): void;
  /** Waits until a frame matches, and returns it. */
  until<T extends ServerFrame>(match: (frame: ServerFrame) => frame is T): Promise<T>;
  close(): void;
}

/** A widget connection to instance `instance` that has said hello (resuming with `resumeToken`; the page's `startKey`) and got ready. */
async function widget(instance: number, resumeToken?: string, agentId = AGENT, startKey?: string): Promise<Client> {
  const client = await openSocket(instance);
  client.send({ type: "hello", agentId, ...(resumeToken ? { resumeToken } : {}), ...(startKey ? { startKey } : {}) });
  await client.until(isType("ready"));
  return client;
}

/** An open socket to instance `instance` that has said nothing yet. */
async function openSocket(instance: number): Promise<Client> {
  const ws = new WebSocket(instances[instance]?.url ?? "", ["parley.v1"], { origin: ORIGIN });
  const frames: ServerFrame[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()) as ServerFrame);
    for (const wake of [...waiters]) wake();
  });
  const closed = once(ws, "close").then(([code]) => code as number);
  await once(ws, "open");
  const client: Client = {
    frames,
    closed,
    send: (frame) => ws.send(JSON.stringify(frame)),
    close: () => ws.close(),
    until: (match) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such frame; got ${JSON.stringify(frames)}`)), 5_000);
        const check = () => {
          const found = frames.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
  };
  return client;
}

function isType<T extends ServerFrame["type"]>(type: T) {
  return (frame: ServerFrame): frame is Extract<ServerFrame, { type: T }> => frame.type === type;
}

function ackOf(clientMessageId: string) {
  return (frame: ServerFrame): frame is Extract<ServerFrame, { type: "ack" }> =>
    frame.type === "ack" && frame.clientMessageId === clientMessageId;
}

function replyTo(clientMessageId: string) {
  return (frame: ServerFrame): frame is Extract<ServerFrame, { type: "message" }> =>
    frame.type === "message" && frame.clientMessageId === clientMessageId;
}

/** A conversation started by a first message; its id and resume token. */
async function startConversation(client: Client, clientMessageId = crypto.randomUUID()) {
  client.send({ type: "message", text: "Hello", clientMessageId });
  await client.until(replyTo(clientMessageId));
  const ready = client.frames.filter(isType("ready")).at(-1);
  if (!ready?.conversationId || !ready.resumeToken) throw new Error("no conversation was created");
  return { conversationId: ready.conversationId, resumeToken: ready.resumeToken };
}

/** What the database holds of a conversation: its messages (role, text, clientMessageId) and its webhook events. */
async function stored(conversationId: string) {
  const messages = await ctx.db.prisma.message.findMany({
    where: { conversationId },
    orderBy: { sequence: "asc" },
    select: { id: true, role: true, text: true, clientMessageId: true },
  });
  const events = await ctx.db.prisma.webhookEvent.findMany({ where: { payload: { contains: conversationId } }, select: { type: true } });
  return { messages, events: events.map((event) => event.type) };
}

describe("acknowledgements", () => {
  it("acknowledge a stored message with its clientMessageId and the stored message's id, which keeps the clientMessageId", async () => {
    const client = await widget(0);
    const { conversationId } = await startConversation(client, "first-message");
    const ack = await client.until(ackOf("first-message"));
    const { messages } = await stored(conversationId);
    expect(ack).toEqual({ type: "ack", clientMessageId: "first-message", messageId: messages[0]?.id });
    expect(messages.map(({ role, text, clientMessageId }) => ({ role, text, clientMessageId }))).toEqual([
      { role: "user", text: "Hello", clientMessageId: "first-message" },
      { role: "agent", text: expect.any(String), clientMessageId: null },
    ]);
    // Stored first, then acknowledged, then answered.
    expect(client.frames.indexOf(ack)).toBeLessThan(client.frames.findIndex(replyTo("first-message")));
    client.close();
  });

  it("send no ack for a message without a clientMessageId, and store every such message, as before", async () => {
    const client = await widget(0);
    client.send({ type: "message", text: "Hello" });
    await client.until(isType("message"));
    const conversationId = client.frames.filter(isType("ready")).at(-1)?.conversationId ?? "";
    const firstFrames = client.frames.splice(0);
    client.send({ type: "message", text: "Hello" });
    await client.until(isType("message"));
    expect([...firstFrames, ...client.frames].filter((frame) => frame.type === "ack")).toEqual([]);
    const { messages } = await stored(conversationId);
    expect(messages.filter((message) => message.role === "user")).toEqual([
      expect.objectContaining({ text: "Hello", clientMessageId: null }),
      expect.objectContaining({ text: "Hello", clientMessageId: null }),
    ]);
    client.close();
  });
});

describe("a message sent again under the same clientMessageId", () => {
  it("is stored once and answered once: acknowledged again with the same ids, on another instance too", async () => {
    const first = await widget(0);
    const { conversationId, resumeToken } = await startConversation(first);
    const id = crypto.randomUUID();
    first.send({ type: "message", text: QUESTION, clientMessageId: id });
    const ack = await first.until(ackOf(id));
    const reply = await first.until(replyTo(id));
    const before = await stored(conversationId);
    first.close();

    // The page never got the ack (its socket died) and sends it again after reconnecting elsewhere.
    const again = await widget(1, resumeToken);
    again.send({ type: "message", text: QUESTION, clientMessageId: id });
    expect(await again.until(ackOf(id))).toEqual(ack);
    // The reply stored with it, which the page may have missed; not a second answer.
    expect(await again.until(replyTo(id))).toEqual(reply);
    // The frames that follow a message (typing, ack, reply) are handled in order: a later message's reply comes after.
    again.send({ type: "message", text: "Thanks", clientMessageId: "after-the-resend" });
    await again.until(replyTo("after-the-resend"));
    expect(again.frames.filter(replyTo(id))).toHaveLength(1);
    expect(again.frames.filter((frame) => frame.type === "message.delta" || frame.type === "error")).toEqual([]);

    const after = await stored(conversationId);
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect(after.messages.filter((message) => message.text === QUESTION)).toHaveLength(1);
    // One webhook event per turn: the resend added none (the "Thanks" turn added its one).
    expect(after.events).toHaveLength(before.events.length + 1);
    again.close();
  });

  it("is stored once when two connections send it at the same time: the turn that commits second stores nothing", async () => {
    fake.enqueue(textResponse("Hello! How can I help?"));
    const first = await widget(0, undefined, LLM_AGENT);
    const { conversationId, resumeToken } = await startConversation(first);
    const second = await widget(1, resumeToken, LLM_AGENT);
    const id = crypto.randomUUID();
    // Both turns are under way (neither stored yet) before the model answers either.
    fake.enqueue(streamedText(["Use ", "the reset link."], { pauseAfter: 1 }), streamedText(["Another ", "answer."], { pauseAfter: 1 }));
    for (const client of [first, second]) client.send({ type: "message", text: QUESTION, clientMessageId: id });
    await expect.poll(() => fake.requests.length).toBe(3);
    fake.release();
    const acks = await Promise.all([first.until(ackOf(id)), second.until(ackOf(id))]);
    const replies = await Promise.all([first.until(replyTo(id)), second.until(replyTo(id))]);
    expect(acks[1]).toEqual(acks[0]);
    expect(replies[1]).toEqual(replies[0]);
    const { messages, events } = await stored(conversationId);
    expect(messages.filter((message) => message.text === QUESTION)).toHaveLength(1);
    expect(messages).toHaveLength(4);
    expect(events).toEqual(["conversation.message", "conversation.message"]);
    for (const client of [first, second]) client.close();
  });

  it("is not acknowledged once the page's origin is no longer allowed: the socket closes 4403", async () => {
    const client = await widget(0, undefined, ORIGIN_AGENT);
    const id = crypto.randomUUID();
    await startConversation(client, id);
    client.frames.length = 0;
    await ctx.db.prisma.agent.update({ where: { id: ORIGIN_AGENT }, data: { allowedOrigins: [] } });
    client.send({ type: "message", text: "Hello", clientMessageId: id });
    expect(await client.closed).toBe(4403);
    expect(client.frames.filter((frame) => frame.type === "ack" || frame.type === "message")).toEqual([]);
  });

  it("is a message of its own when its text differs (a page numbering its messages anew): stored without the id, answered, never dropped", async () => {
    const client = await widget(0);
    const { conversationId } = await startConversation(client, "1");
    client.frames.length = 0;
    client.send({ type: "message", text: QUESTION, clientMessageId: "1" });
    const reply = await client.until(replyTo("1"));
    await expect.poll(async () => (await stored(conversationId)).messages.length).toBe(4);
    const { messages } = await stored(conversationId);
    expect(messages.filter((message) => message.role === "user").map(({ text, clientMessageId }) => ({ text, clientMessageId }))).toEqual([
      { text: "Hello", clientMessageId: "1" },
      { text: QUESTION, clientMessageId: null },
    ]);
    expect(reply.id).toBe(messages[3]?.id);
    client.close();
  });

  it("is two messages in two conversations", async () => {
    const id = crypto.randomUUID();
    const conversations: string[] = [];
    for (const instance of [0, 1]) {
      const client = await widget(instance);
      conversations.push((await startConversation(client, id)).conversationId);
      expect((await client.until(ackOf(id))).messageId).toEqual(expect.any(String));
      client.close();
    }
    expect(conversations[0]).not.toBe(conversations[1]);
    const rows = await ctx.db.prisma.message.findMany({ where: { clientMessageId: id }, select: { conversationId: true } });
    expect(rows.map((row) => row.conversationId).sort()).toEqual([...conversations].sort());
  });
});

/** A page's secret as the SDK makes it: 64 hex digits. */
function newStartKey() {
  return randomBytes(32).toString("hex");
}

/** The conversations holding a visitor message sent under `clientMessageId`. */
async function conversationsWith(clientMessageId: string) {
  const rows = await ctx.db.prisma.message.findMany({
    where: { clientMessageId },
    select: { conversationId: true },
    orderBy: { createdAt: "asc" },
  });
  return [...new Set(rows.map((row) => row.conversationId))];
}

/** What the agent's usage counts this month: conversations and turns. */
async function usageOf(agentId: string) {
  const rows = await ctx.db.prisma.usageMonth.findMany({ where: { agentId }, select: { conversations: true, turns: true } });
  return { conversations: rows.reduce((sum, row) => sum + row.conversations, 0), turns: rows.reduce((sum, row) => sum + row.turns, 0) };
}

describe("a first message sent again after its socket died before ready", () => {
  it("joins the conversation it started, on another instance: one conversation, message, reply and turn; the page gets ready with it, then the ack", async () => {
    const startKey = newStartKey();
    const id = crypto.randomUUID();
    const usageBefore = await usageOf(LLM_AGENT);
    const requestsBefore = fake.requests.length;
    // The first socket dies while its turn runs: the turn stores the message and its reply, and
    // the page never reads the `ready` that names the conversation.
    fake.enqueue(streamedText(["Use ", "the reset link."], { pauseAfter: 1 }));
    const cut = await widget(0, undefined, LLM_AGENT, startKey);
    cut.send({ type: "message", text: QUESTION, clientMessageId: id });
    await cut.until(isType("message.delta"));
    cut.close();
    await cut.closed;
    fake.release();
    await expect.poll(() => conversationsWith(id)).toHaveLength(1);
    const [conversationId = ""] = await conversationsWith(id);
    const before = await stored(conversationId);

    // The page's next socket, on the other instance, sends it again under the same id and key.
    const again = await widget(1, undefined, LLM_AGENT, startKey);
    again.send({ type: "message", text: QUESTION, clientMessageId: id });
    const reply = await again.until(replyTo(id));
    const readies = again.frames.filter(isType("ready"));
    expect(readies.map((ready) => ready.conversationId)).toEqual([null, conversationId]);
    expect(readies[1]).toMatchObject({ resumeToken: expect.any(String), status: "active", messages: [] });
    const ack = await again.until(ackOf(id));
    expect(ack).toEqual({ type: "ack", clientMessageId: id, messageId: before.messages[0]?.id });
    expect(reply).toMatchObject({ id: before.messages[1]?.id, role: "agent", text: "Use the reset link." });
    // In the order of a conversation the message started: ready, ack, reply.
    expect(again.frames.indexOf(readies[1] as ServerFrame)).toBeLessThan(again.frames.indexOf(ack));
    expect(again.frames.indexOf(ack)).toBeLessThan(again.frames.indexOf(reply));
    expect(again.frames.filter((frame) => frame.type === "message.delta" || frame.type === "error")).toEqual([]);
    // No second turn: the model was asked once, usage and webhook events counted the turn once.
    expect(fake.requests.length).toBe(requestsBefore + 1);
    expect(await usageOf(LLM_AGENT)).toEqual({ conversations: usageBefore.conversations + 1, turns: usageBefore.turns + 1 });
    expect(await stored(conversationId)).toEqual(before);
    expect(before.messages.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: "user", text: QUESTION },
      { role: "agent", text: "Use the reset link." },
    ]);

    // The page goes on in that conversation, and its resume token is that conversation's.
    fake.enqueue(textResponse("You're welcome."));
    again.send({ type: "message", text: "Thanks", clientMessageId: "thanks" });
    await again.until(replyTo("thanks"));
    expect((await stored(conversationId)).messages.map((message) => message.text)).toEqual([
      QUESTION,
      "Use the reset link.",
      "Thanks",
      "You're welcome.",
    ]);
    expect(await conversationsWith(id)).toEqual([conversationId]);
    again.close();
    const resumed = await widget(0, readies[1]?.resumeToken ?? "", LLM_AGENT);
    expect(resumed.frames.filter(isType("ready"))[0]).toMatchObject({ conversationId, messages: expect.any(Array) });
    expect(resumed.frames.filter(isType("ready"))[0]?.messages).toHaveLength(4);
    resumed.close();
  });

  it("is a new conversation from another page (another key, or none), which sees nothing of the first", async () => {
    const id = crypto.randomUUID();
    const owner = await widget(0, undefined, AGENT, newStartKey());
    const { conversationId } = await startConversation(owner, id);
    owner.close();
    const before = await stored(conversationId);

    for (const startKey of [newStartKey(), undefined]) {
      // Another visitor replays the id and the text (over the other instance), with a key of their own or none.
      const other = await widget(1, undefined, AGENT, startKey);
      other.send({ type: "message", text: "Hello", clientMessageId: id });
      const reply = await other.until(replyTo(id));
      const ready = other.frames.filter(isType("ready")).at(-1);
      expect(ready?.conversationId).toEqual(expect.any(String));
      expect(ready?.conversationId).not.toBe(conversationId);
      expect(ready?.messages).toEqual([]);
      const ack = await other.until(ackOf(id));
      expect(before.messages.map((message) => message.id)).not.toContain(ack.messageId);
      expect(before.messages.map((message) => message.id)).not.toContain(reply.id);
      expect((await stored(ready?.conversationId ?? "")).messages.map(({ role, text }) => ({ role, text }))).toEqual([
        { role: "user", text: "Hello" },
        { role: "agent", text: reply.text },
      ]);
      other.close();
    }
    expect(await stored(conversationId)).toEqual(before);
    expect(await conversationsWith(id)).toHaveLength(3);
  });

  it("starts one conversation when two sockets of the page send it at the same time: the turn that commits second stores nothing", async () => {
    const startKey = newStartKey();
    const id = crypto.randomUUID();
    const usageBefore = await usageOf(LLM_AGENT);
    const [first, second] = [await widget(0, undefined, LLM_AGENT, startKey), await widget(1, undefined, LLM_AGENT, startKey)];
    const requestsBefore = fake.requests.length;
    fake.enqueue(streamedText(["Use ", "the reset link."], { pauseAfter: 1 }), streamedText(["Another ", "answer."], { pauseAfter: 1 }));
    for (const client of [first, second]) client.send({ type: "message", text: QUESTION, clientMessageId: id });
    await expect.poll(() => fake.requests.length).toBe(requestsBefore + 2);
    fake.release();
    const acks = await Promise.all([first.until(ackOf(id)), second.until(ackOf(id))]);
    const replies = await Promise.all([first.until(replyTo(id)), second.until(replyTo(id))]);
    expect(acks[1]).toEqual(acks[0]);
    expect(replies[1]).toEqual(replies[0]);
    const conversations = await conversationsWith(id);
    expect(conversations).toHaveLength(1);
    for (const client of [first, second]) expect(client.frames.filter(isType("ready")).at(-1)?.conversationId).toBe(conversations[0]);
    expect((await stored(conversations[0] ?? "")).messages).toHaveLength(2);
    expect(await usageOf(LLM_AGENT)).toEqual({ conversations: usageBefore.conversations + 1, turns: usageBefore.turns + 1 });
    for (const client of [first, second]) client.close();
  });

  it("is a new conversation when sent again too late, or with another text", async () => {
    const startKey = newStartKey();
    const late = crypto.randomUUID();
    const page = await widget(0, undefined, AGENT, startKey);
    const { conversationId } = await startConversation(page, late);
    page.close();
    // Eleven minutes later: beyond the window, the key no longer joins it.
    await ctx.db.prisma.conversation.update({ where: { id: conversationId }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    const later = await widget(1, undefined, AGENT, startKey);
    const lateConversation = await startConversation(later, late);
    expect(lateConversation.conversationId).not.toBe(conversationId);
    later.close();

    const renumbered = crypto.randomUUID();
    const first = await widget(0, undefined, AGENT, startKey);
    const started = await startConversation(first, renumbered);
    first.close();
    const other = await widget(1, undefined, AGENT, startKey);
    other.send({ type: "message", text: QUESTION, clientMessageId: renumbered });
    await other.until(replyTo(renumbered));
    const otherConversation = other.frames.filter(isType("ready")).at(-1)?.conversationId;
    expect(otherConversation).not.toBe(started.conversationId);
    expect((await stored(otherConversation ?? "")).messages.map((message) => message.text)[0]).toBe(QUESTION);
    expect((await stored(started.conversationId)).messages).toHaveLength(2);
    other.close();
  });
});

describe("an invalid startKey", () => {
  it("is refused with Invalid request and the rule, and the socket closes 4400", async () => {
    for (const startKey of ["a".repeat(31), "a".repeat(129), `${"a".repeat(40)}:1`, 42]) {
      const client = await openSocket(0);
      client.send({ type: "hello", agentId: AGENT, startKey });
      expect(await client.closed).toBe(4400);
      expect(client.frames).toEqual([
        {
          type: "error",
          error: "Invalid request",
          details: typeof startKey === "number" ? expect.any(String) : "startKey: must be 32 to 128 letters, digits, _ or -",
        },
      ]);
    }
    // The shortest and the longest are taken.
    for (const startKey of ["a".repeat(32), "b".repeat(128)]) (await widget(0, undefined, AGENT, startKey)).close();
  });
});

describe("an invalid clientMessageId", () => {
  it("is refused with Invalid request and the rule, and nothing is stored", async () => {
    const client = await widget(0);
    const { conversationId } = await startConversation(client);
    const count = (await stored(conversationId)).messages.length;
    for (const clientMessageId of ["", "has space", "ümlaut", "a".repeat(101), 42]) {
      client.frames.length = 0;
      client.send({ type: "message", text: QUESTION, clientMessageId });
      const error = await client.until(isType("error"));
      expect(error).toMatchObject({
        error: "Invalid request",
        details: typeof clientMessageId === "number" ? expect.any(String) : ID_RULE,
      });
    }
    // The longest id allowed is taken.
    client.send({ type: "message", text: QUESTION, clientMessageId: "a".repeat(100) });
    await client.until(ackOf("a".repeat(100)));
    expect((await stored(conversationId)).messages).toHaveLength(count + 2);
    client.close();
  });
});
