// The widget does not spend the HTTP API's limit: one page sends 40 widget messages over a real
// WebSocket to one app instance, then the integrator's backend calls the HTTP API with its valid
// key on the other instance (one PostgreSQL, one Redis). With the widget's defaults the page is
// stopped by the widget's own per-connection limit; with the agent's widget limits raised all 40
// turns run. Either way the key's next request is 200 with its full minute left.
import { randomUUID } from "node:crypto";
import { WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE } from "@parley/core/agents/limits";
import { expect, it } from "vitest";
import { WebSocket } from "ws";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { createAgent } from "./support/database.ts";
import { sendTurn, sleep } from "./support/http.ts";

const cluster = setUpTwoAppCluster("widget-limits");
const PAGE_ORIGIN = "https://shop.example";

interface Frame {
  type: string;
  clientMessageId?: string;
  error?: string;
  details?: string;
}

/** Says hello from the page and sends `count` messages, one after the other's answer; returns the answers. */
async function chatFromOnePage(baseUrl: string, agentId: string, count: number): Promise<Frame[]> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/ws`, ["parley.v1"], { origin: PAGE_ORIGIN });
  const frames: Frame[] = [];
  let wake: (() => void) | undefined;
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    wake?.();
  });
  const next = async (match: (frame: Frame) => boolean): Promise<Frame> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = frames.find(match);
      if (found) return found;
      if (Date.now() > deadline || ws.readyState === ws.CLOSED) throw new Error(`no answer; got ${JSON.stringify(frames.slice(-5))}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  };
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "hello", agentId }));
  await next((frame) => frame.type === "ready");
  const answers: Frame[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ws.send(JSON.stringify({ type: "message", text: `Widget question ${i + 1}: how do refunds work?`, clientMessageId: id }));
    answers.push(await next((frame) => (frame.type === "message" || frame.type === "error") && frame.clientMessageId === id));
  }
  ws.close();
  return answers;
}

it("40 widget messages from one page leave the integrator's valid key its 30 a minute", async () => {
  const defaults = await createAgent(cluster.db, "widget-defaults");
  const raised = await createAgent(cluster.db, "widget-raised");
  await cluster.db.prisma.agent.update({ where: { id: defaults.id }, data: { allowedOrigins: [PAGE_ORIGIN] } });
  await cluster.db.prisma.agent.update({
    where: { id: raised.id },
    data: { allowedOrigins: [PAGE_ORIGIN], widgetMessagesPerConnectionPerMinute: 100, widgetMessagesPerIpPerMinute: 100 },
  });
  // Windows start on whole minutes: keep each page's burst and the API call inside one.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 30_000) await sleep(60_000 - intoMinute + 250);

  const [widgetApp, apiApp] = cluster.apps as [(typeof cluster.apps)[0], (typeof cluster.apps)[0]];
  const summary: string[] = [];
  for (const [agent, expectedAnswered] of [
    [defaults, WIDGET_MESSAGES_PER_CONNECTION_PER_MINUTE.default],
    [raised, 40],
  ] as const) {
    const answers = await chatFromOnePage(widgetApp.url, agent.id, 40);
    const answered = answers.filter((frame) => frame.type === "message").length;
    const refused = answers.filter((frame) => frame.type === "error");
    expect(answered).toBe(expectedAnswered);
    for (const frame of refused)
      expect(frame).toMatchObject({ error: "Rate limit exceeded", details: "Too many messages on this connection" });

    const api = await sendTurn(apiApp.url, agent, { message: "From the integrator's backend" });
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    expect(api.headers.get("ratelimit")).toMatch(/^"messages";r=29;t=\d+$/);
    summary.push(
      `${agent.id}: ${answered} widget turns answered, ${refused.length} refused by the widget's own limit; API key: 200, 29 of 30 left`,
    );
  }
  console.log(`widget limits: 40 widget messages from one page, then the HTTP API with the valid key:\n  ${summary.join("\n  ")}`);
});
