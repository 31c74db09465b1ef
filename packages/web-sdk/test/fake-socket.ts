// A WebSocket the SDK's tests play the server of: what the SDK writes is kept in `sent`, and the
// test opens, answers and closes it.
import { type ConnectOptions, connect, type WebSocketConstructor } from "../src/index.ts";

export type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;

/** The server's `ready` for a new conversation. */
export const READY = { type: "ready", conversationId: "c1", status: "active", messages: [], resumeToken: "t1" };

export class FakeSocket {
  /** Every socket the SDK opened, oldest first (reset it before each test). */
  static all: FakeSocket[] = [];
  readyState = 0;
  binaryType = "blob";
  readonly sent: string[] = [];
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string) {
    this.sent.push(data);
  }

  close(code = 1000, reason = "") {
    this.serverCloses(code, reason);
  }

  serverOpens() {
    this.readyState = 1;
    this.dispatch("open", {});
  }

  /** The socket opens and the server answers hello. */
  serverReady() {
    this.serverOpens();
    this.serverSays(READY);
  }

  serverSays(frame: Record<string, unknown>) {
    this.dispatch("message", { data: JSON.stringify(frame) });
  }

  serverCloses(code: number, reason = "") {
    this.readyState = 3;
    this.dispatch("close", { code, reason });
  }

  /** The hello frame written into this socket. */
  hello(): Record<string, unknown> | undefined {
    return this.sent.map((data) => JSON.parse(data)).find((frame) => frame.type === "hello");
  }

  /** The message frames written into this socket. */
  messages(): Array<{ text: string; clientMessageId: string }> {
    return this.sent.map((data) => JSON.parse(data)).filter((frame) => frame.type === "message");
  }

  private dispatch(type: string, event: Parameters<Listener>[0]) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** The SDK connected over fake sockets (the list of them starts anew); `socket(i)` is the i-th it opened. */
export function connectOverFakeSockets(options: Partial<ConnectOptions> = {}) {
  FakeSocket.all = [];
  const chat = connect({
    agentId: "demo",
    baseUrl: "http://localhost:3000",
    storage: null,
    WebSocket: FakeSocket as unknown as WebSocketConstructor,
    ...options,
  });
  return { chat, socket: (index: number) => FakeSocket.all[index] as FakeSocket };
}
