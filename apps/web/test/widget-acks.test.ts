// A visitor message sent with a clientMessageId over parley.v1 is acknowledged once stored, and a
// message sent again under the same id (the widget's outbox after a reconnect) is stored once:
// acknowledged again with the same message id and the same reply, no second turn, no second
// webhook event. Real sockets on two socket servers sharing one real PGlite database (two
// instances: the dedupe lives in the database, not in a connection's memory).
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

/** A widget connection to instance `instance` that has said hello (resuming with `resumeToken`) and got ready. */
async function widget(instance: number, resumeToken?: string, agentId = AGENT): Promise<Client> {
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
  client.send({ type: "hello", agentId, ...(resumeToken ? { resumeToken } : {}) });
  await client.until(isType("ready"));
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
