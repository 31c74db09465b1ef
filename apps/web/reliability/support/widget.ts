// A page's widget connection over the app's /ws (directly or through a balancer), as the widget
// opens it: the parley.v1 subprotocol from an allowed origin, hello (with a resume token to
// continue a conversation), then ready. Frames are kept with the time they arrived.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { WebSocket } from "ws";
import { until } from "./http.ts";

export interface WidgetFrame {
  type: string;
  /** performance.now() when it arrived. */
  at: number;
  [key: string]: unknown;
}

export interface WidgetPage {
  /** The X-Upstream header of the upgrade response: the instance a balancer chose ("" without one). */
  upstream: string;
  frames: WidgetFrame[];
  /** The close code and when it came. */
  closed: Promise<{ code: number; at: number }>;
  /** Sends a visitor message; returns its clientMessageId. */
  send(text: string): string;
  /** Resolves with the reply (message frame) to the message of `clientMessageId`. */
  reply(clientMessageId: string, timeoutMs?: number): Promise<WidgetFrame>;
  close(): void;
}

export async function openWidget(baseUrl: string, agentId: string, options: { origin: string; resumeToken?: string }): Promise<WidgetPage> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/ws`, ["parley.v1"], { origin: options.origin });
  const frames: WidgetFrame[] = [];
  let upstream = "";
  ws.on("upgrade", (response) => {
    upstream = String(response.headers["x-upstream"] ?? "");
  });
  ws.on("message", (data) => frames.push({ ...JSON.parse(data.toString()), at: performance.now() }));
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.once("close", (code) => resolve({ code, at: performance.now() })),
  );
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "hello", agentId, ...(options.resumeToken ? { resumeToken: options.resumeToken } : {}) }));
  await until("the widget's ready", () => frames.some((frame) => frame.type === "ready"));
  const replyTo = (id: string) => frames.find((frame) => frame.type === "message" && frame.clientMessageId === id);
  return {
    upstream,
    frames,
    closed,
    send(text) {
      const clientMessageId = randomUUID();
      ws.send(JSON.stringify({ type: "message", text, clientMessageId }));
      return clientMessageId;
    },
    async reply(clientMessageId, timeoutMs = 20_000) {
      await until("the widget's reply", () => replyTo(clientMessageId) !== undefined, timeoutMs);
      return replyTo(clientMessageId)!;
    },
    close: () => ws.close(),
  };
}
