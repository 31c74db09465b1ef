// @parley/web's outbox: each message keeps a random clientMessageId until the server acknowledges
// it, and what is unacknowledged when a socket dies is sent again, in order and under the same id,
// once the next socket is ready. At most OUTBOX_MAX_MESSAGES wait; beyond, send() refuses.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OUTBOX_FULL_ERROR, OUTBOX_MAX_MESSAGES, type ParleyEvents } from "../src/index.ts";
import { connectOverFakeSockets, FakeSocket } from "./fake-socket.ts";

function chatWithFakeSocket(options: Parameters<typeof connectOverFakeSockets>[0] = {}) {
  const { chat, socket } = connectOverFakeSockets(options);
  /** The socket dies; the next one is ready after the backoff's wait. */
  const reconnect = () => {
    socket(FakeSocket.all.length - 1).serverCloses(1006);
    vi.advanceTimersByTime(30_000);
    socket(FakeSocket.all.length - 1).serverReady();
    return socket(FakeSocket.all.length - 1);
  };
  return { chat, socket, reconnect };
}

describe("the outbox", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives every message a random id the server accepts (letters, digits, -)", () => {
    const { chat, socket } = chatWithFakeSocket();
    socket(0).serverReady();
    const ids = [chat.send("One"), chat.send("Two")];
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(socket(0).messages()).toEqual([
      { type: "message", text: "One", clientMessageId: ids[0] },
      { type: "message", text: "Two", clientMessageId: ids[1] },
    ]);
    chat.close();
  });

  it("sends what was not acknowledged again after a reconnect, in order, under the same ids; never what was", () => {
    const { chat, socket, reconnect } = chatWithFakeSocket();
    socket(0).serverReady();
    const acks: Array<ParleyEvents["ack"]> = [];
    chat.on("ack", (ack) => acks.push(ack));
    const [first, second, third, fourth] = ["First", "Second", "Third", "Fourth"].map((text) => chat.send(text));
    socket(0).serverSays({ type: "ack", clientMessageId: second, messageId: "m2" });
    // An answered message is stored with its reply; a refused one would be refused again.
    socket(0).serverSays({
      type: "message",
      id: "r3",
      role: "agent",
      text: "Hi",
      richContent: [],
      toolCalls: [],
      createdAt: "",
      clientMessageId: third,
    });
    socket(0).serverSays({ type: "error", error: "Rate limit exceeded", retryAfter: 10, clientMessageId: fourth });
    expect(acks).toEqual([{ clientMessageId: second, messageId: "m2" }]);
    expect(chat.pendingMessages).toBe(1);

    const next = reconnect();
    expect(next.messages()).toEqual([{ type: "message", text: "First", clientMessageId: first }]);
    next.serverSays({ type: "ack", clientMessageId: first, messageId: "m1" });
    expect(chat.pendingMessages).toBe(0);
    expect(reconnect().messages()).toEqual([]);
    chat.close();
  });

  it("sends a message written while the socket was down once, when the next one is ready", () => {
    const { chat, socket, reconnect } = chatWithFakeSocket();
    socket(0).serverReady();
    socket(0).serverCloses(1006);
    const id = chat.send("Still there?");
    vi.advanceTimersByTime(30_000);
    socket(1).serverReady();
    expect(socket(1).messages()).toEqual([{ type: "message", text: "Still there?", clientMessageId: id }]);
    expect(reconnect().messages()).toEqual([{ type: "message", text: "Still there?", clientMessageId: id }]);
    chat.close();
  });

  it("sends a first message again with the page's start key after its socket died before ready, and goes on in the conversation the next ready names", () => {
    const saved = new Map<string, string>();
    const storage = {
      getItem: (key: string) => saved.get(key) ?? null,
      setItem: (key: string, value: string) => void saved.set(key, value),
      removeItem: (key: string) => void saved.delete(key),
    };
    const { chat, socket, reconnect } = chatWithFakeSocket({ storage });
    const newVisitor = { type: "ready", conversationId: null, resumeToken: null, status: "active", messages: [] };
    socket(0).serverOpens();
    socket(0).serverSays(newVisitor);
    const id = chat.send("Hello");
    // The server stored it and started a conversation, but the socket died before its ready came.
    socket(0).serverCloses(1006);
    vi.advanceTimersByTime(30_000);
    socket(1).serverOpens();
    socket(1).serverSays(newVisitor);
    const startKey = socket(0).hello()?.startKey;
    expect(startKey).toMatch(/^[0-9a-f]{64}$/);
    expect(socket(1).hello()).toEqual({ type: "hello", agentId: "demo", startKey });
    expect(socket(1).messages()).toEqual([{ type: "message", text: "Hello", clientMessageId: id }]);

    // The server found the conversation the message started: ready names it, then the ack.
    socket(1).serverSays({ ...newVisitor, conversationId: "c1", resumeToken: "t1" });
    socket(1).serverSays({ type: "ack", clientMessageId: id, messageId: "m1" });
    expect(chat.conversationId).toBe("c1");
    expect(saved.get("parley:demo:resume")).toBe("t1");
    expect(chat.pendingMessages).toBe(0);
    const next = reconnect();
    expect(next.hello()).toEqual({ type: "hello", agentId: "demo", resumeToken: "t1", startKey });
    expect(next.messages()).toEqual([]);
    chat.close();

    // Another page (another connection) has a key of its own.
    const other = chatWithFakeSocket();
    other.socket(0).serverOpens();
    expect(other.socket(0).hello()?.startKey).toMatch(/^[0-9a-f]{64}$/);
    expect(other.socket(0).hello()?.startKey).not.toBe(startKey);
    other.chat.close();
  });

  it(`holds ${OUTBOX_MAX_MESSAGES} unacknowledged messages; beyond, send() says so and sends nothing`, () => {
    const { chat, socket } = chatWithFakeSocket();
    socket(0).serverReady();
    const errors: Array<ParleyEvents["error"]> = [];
    chat.on("error", (error) => errors.push(error));
    const ids = Array.from({ length: OUTBOX_MAX_MESSAGES }, (_, i) => {
      expect(chat.canSend).toBe(true);
      return chat.send(`Message ${i + 1}`);
    });
    expect(chat.canSend).toBe(false);
    const refused = chat.send("One too many");
    expect(errors).toEqual([
      {
        type: "error",
        error: OUTBOX_FULL_ERROR,
        details: "20 messages are still waiting to be sent. Send this one once they are.",
        clientMessageId: refused,
      },
    ]);
    expect(socket(0).messages()).toHaveLength(OUTBOX_MAX_MESSAGES);
    expect(chat.pendingMessages).toBe(OUTBOX_MAX_MESSAGES);
    socket(0).serverSays({ type: "ack", clientMessageId: ids[0], messageId: "m1" });
    expect(chat.canSend).toBe(true);
    chat.send("Now there is room");
    expect(socket(0).messages().at(-1)?.text).toBe("Now there is room");
    chat.close();
  });
});
