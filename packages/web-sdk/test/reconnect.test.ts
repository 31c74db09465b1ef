// @parley/web's reconnecting: the backoff schedule (1 s doubling to a 30 s cap, ±20 % jitter;
// within a second after a restart's 1001), what the widget says while offline, and the connection
// that waits, says how long, tries again at once on "Try now" and keeps the visitor's messages.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { offlineStatus, RECONNECTING_TEXT } from "../src/connection-status.ts";
import { type ParleyEvents, reconnectDelay } from "../src/index.ts";
import { connectOverFakeSockets, FakeSocket, READY } from "./fake-socket.ts";

describe("reconnectDelay", () => {
  const middle = () => 0.5;

  it("doubles from 1 s and stops at 30 s", () => {
    const waits = Array.from({ length: 8 }, (_, attempt) => reconnectDelay(attempt, 1006, undefined, middle));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    // Far past the cap nothing overflows.
    expect(reconnectDelay(5_000, 4429, undefined, middle)).toBe(30_000);
  });

  it("spreads each wait over ±20 % and never past the cap", () => {
    expect(reconnectDelay(0, 4429, undefined, () => 0)).toBe(800);
    expect(reconnectDelay(0, 4429, undefined, () => 0.999_999)).toBe(1_200);
    expect(reconnectDelay(3, 1006, undefined, () => 0)).toBe(6_400);
    expect(reconnectDelay(10, 1006, undefined, () => 0)).toBe(24_000);
    expect(reconnectDelay(10, 1006, undefined, () => 0.999_999)).toBe(30_000);
  });

  it("comes back within a second after the server went away (1001), whatever the attempt", () => {
    expect(reconnectDelay(0, 1001, undefined, () => 0)).toBe(0);
    expect(reconnectDelay(7, 1001, undefined, () => 0.999_999)).toBe(1_000);
  });

  it("follows a schedule of the caller's", () => {
    expect(reconnectDelay(2, 1006, { initialDelayMs: 100, maxDelayMs: 300 }, middle)).toBe(300);
    expect(reconnectDelay(1, 1006, { initialDelayMs: 100, maxDelayMs: 300 }, middle)).toBe(200);
  });
});

describe("offlineStatus", () => {
  it("says why and when, in whole seconds", () => {
    expect(offlineStatus(4429, 7_200)).toEqual({
      text: "Too many chats open from your network — trying again in 8 s",
      canRetryNow: true,
    });
    expect(offlineStatus(1006, 4_000)).toEqual({ text: "Can’t reach the chat right now — retrying in 4 s", canRetryNow: true });
    expect(offlineStatus(1011, 30_000).text).toBe("Can’t reach the chat right now — retrying in 30 s");
    // Never "in 0 s".
    expect(offlineStatus(1006, 40).text).toBe("Can’t reach the chat right now — retrying in 1 s");
  });

  it("only says it is reconnecting after a restart (1001), with no button", () => {
    expect(offlineStatus(1001, 300)).toEqual({ text: RECONNECTING_TEXT, canRetryNow: false });
    expect(RECONNECTING_TEXT).toBe("Reconnecting…");
  });
});

function chatWithFakeSocket() {
  const { chat, socket } = connectOverFakeSockets();
  const changes: Array<ParleyEvents["connection"]> = [];
  chat.on("connection", (change) => changes.push(change));
  return { chat, changes, socket };
}

describe("a connection that loses its socket", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("says how long it waits after each refusal, waits longer each time, and starts over once ready", () => {
    const { chat, changes, socket } = chatWithFakeSocket();
    socket(0).serverOpens();
    socket(0).serverCloses(4429, "Too many connections");
    expect(changes.at(-1)).toEqual({ state: "connecting", code: 4429, reason: "Too many connections", retryInMs: 1_000 });
    expect(chat.state).toBe("connecting");

    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    // The new try itself: no code, no wait.
    expect(changes.at(-1)).toEqual({ state: "connecting" });

    socket(1).serverCloses(1006);
    expect(changes.at(-1)).toEqual({ state: "connecting", code: 1006, retryInMs: 2_000 });
    vi.advanceTimersByTime(2_000);
    socket(2).serverOpens();
    socket(2).serverSays(READY);
    expect(changes.at(-1)).toEqual({ state: "open" });

    // Ready again: the next close starts from the first wait.
    socket(2).serverCloses(1006);
    expect(changes.at(-1)?.retryInMs).toBe(1_000);
    chat.close();
  });

  it("tries again at once on reconnectNow, and only while waiting", () => {
    const { chat, socket } = chatWithFakeSocket();
    chat.reconnectNow();
    expect(FakeSocket.all).toHaveLength(1);
    socket(0).serverCloses(4429, "Too many connections");
    chat.reconnectNow();
    expect(FakeSocket.all).toHaveLength(2);
    // The timer it replaced does not open a third socket.
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
    chat.close();
  });

  it("comes back within a second after 1001, and backs off from the start when the server is not back yet", () => {
    const { chat, changes, socket } = chatWithFakeSocket();
    socket(0).serverOpens();
    socket(0).serverSays(READY);
    socket(0).serverCloses(1001, "Server shutting down");
    expect(changes.at(-1)).toEqual({ state: "connecting", code: 1001, reason: "Server shutting down", retryInMs: 500 });
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all).toHaveLength(2);
    socket(1).serverCloses(1006);
    expect(changes.at(-1)?.retryInMs).toBe(1_000);
    chat.close();
  });

  it("keeps what the visitor sent while offline and sends it once ready", () => {
    const { chat, socket } = chatWithFakeSocket();
    socket(0).serverCloses(1006);
    const id = chat.send("Where is my order?");
    vi.advanceTimersByTime(1_000);
    socket(1).serverOpens();
    expect(socket(1).sent.map((frame) => JSON.parse(frame).type)).toEqual(["hello"]);
    socket(1).serverSays(READY);
    expect(JSON.parse(socket(1).sent[1] ?? "{}")).toEqual({ type: "message", text: "Where is my order?", clientMessageId: id });
    chat.close();
  });

  it("stops for good on a fatal close", () => {
    const { changes, socket } = chatWithFakeSocket();
    socket(0).serverCloses(4403, "Origin not allowed");
    expect(changes.at(-1)).toEqual({ state: "closed", code: 4403, reason: "Origin not allowed" });
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
