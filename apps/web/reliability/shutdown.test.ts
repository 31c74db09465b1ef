// Graceful shutdown of a real production process (`node apps/web/server.mjs`) on SIGTERM, as an
// orchestrator or `docker stop` sends it while rolling or scaling down behind a load balancer:
// - new connections are refused at once (the balancer sends them to another instance);
// - an HTTP turn and a widget turn that are waiting on the model finish: the API client gets its
//   200 and the widget its reply, and both are stored;
// - the widget's socket is then closed with 1001 (going away), after its reply, so the page
//   reconnects (to another instance) instead of giving up;
// - a webhook delivery in flight to a receiver that never answers is given back (claim and lease
//   cleared, its attempt not counted) for another instance to send at once;
// - the process exits 0 within the drain bound, and a turn longer than the bound does not hold it
//   past SHUTDOWN_EXIT_MS.
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { performance } from "node:perf_hooks";
import { SHUTDOWN_DRAIN_MS, SHUTDOWN_EXIT_MS } from "@parley/core/shutdown";
import { type FakeOpenAi, slowResponse, startFakeOpenAi, textResponse } from "@parley/testing/fake-openai";
import { type Receiver, startReceiver } from "@parley/testing/webhook-receiver";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { type AppInstance, printLogsOnFailure, sharedStoresEnv, startApp } from "./support/apps.ts";
import { createAgent, createSeededDatabase, type ServerDatabase, type TestAgent } from "./support/database.ts";
import { sendTurn, until as untilPolled } from "./support/http.ts";
import { openWidget } from "./support/widget.ts";

const PAGE_ORIGIN = "https://shop.example";
/** How long the model takes to answer the turns that are running when SIGTERM comes. */
const MODEL_DELAY_MS = 2_000;

let db: ServerDatabase;
let fake: FakeOpenAi;
let receiver: Receiver;
let app: AppInstance | undefined;

beforeAll(async () => {
  db = await createSeededDatabase();
  fake = await startFakeOpenAi({ apiKey: "sk-reliability" });
  // A receiver that never answers: the delivery is still in flight when the instance stops.
  receiver = await startReceiver(() => ({ status: 200, hang: true }));
});

printLogsOnFailure(() => [app]);

afterEach(async () => {
  await app?.kill();
  app = undefined;
});

afterAll(async () => {
  await receiver?.close();
  await fake?.close();
  await db?.close();
});

function startInstance(name: string): Promise<AppInstance> {
  return startApp({
    name,
    env: {
      ...sharedStoresEnv(db.url, `parley-${name}`),
      LLM_BASE_URL: fake.baseUrl,
      LLM_API_KEY: "sk-reliability",
      LLM_MODEL: "fake-model",
      LLM_TIMEOUT_MS: "60000",
      WEBHOOKS_ALLOW_LOCAL: "1",
    },
  });
}

async function llmAgent(label: string): Promise<TestAgent> {
  const agent = await createAgent(db, label, { engine: "llm" });
  await db.prisma.agent.update({ where: { id: agent.id }, data: { allowedOrigins: [PAGE_ORIGIN] } });
  return agent;
}

/** Polls `probe`; a timeout shows the app's log. */
function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  return untilPolled(what, probe, timeoutMs, () => `--- app log ---\n${app?.logTail()}`);
}

/** True when a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

it("SIGTERM: refuses new connections, lets running HTTP and widget turns reply, closes the widget with 1001, gives back a webhook delivery, exits 0", async () => {
  app = await startInstance("drain");
  const agent = await llmAgent("drain");
  // A webhook endpoint of the demo workspace: the widget conversation's conversation.created goes
  // to the receiver, which holds the request open.
  const endpoint = await db.prisma.webhookEndpoint.create({
    data: {
      workspaceId: "ws-demo",
      url: receiver.url,
      eventTypes: ["conversation.created"],
      secret: `whsec_${randomBytes(32).toString("base64")}`,
    },
  });
  const page = await openWidget(app.url, agent.id, { origin: PAGE_ORIGIN });
  fake.enqueue(textResponse("Hello, how can I help?"));
  const helloId = page.send("Hello");
  await until("the widget's first reply", () => page.frames.some((frame) => frame.type === "message" && frame.clientMessageId === helloId));
  await until("the webhook delivery to be in flight", () => receiver.inFlight.size > 0);
  const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
  expect(delivery.claimToken).not.toBeNull();
  expect(delivery.attempts).toBe(1);

  // Two turns waiting on the model: one over the HTTP API, one from the widget.
  const requestsBefore = fake.requests.length;
  fake.enqueue(
    slowResponse(MODEL_DELAY_MS, textResponse("Refunds take five days.")),
    slowResponse(MODEL_DELAY_MS, textResponse("Refunds take five days.")),
  );
  const httpTurn = sendTurn(app.url, agent, { message: "How do refunds work?" });
  const widgetMessageId = page.send("And how do refunds work for a widget visitor?");
  await until("both turns to wait on the model", () => fake.requests.length === requestsBefore + 2);

  const sigterm = performance.now();
  app.signal("SIGTERM");
  await until("new connections to be refused", () => refused(app!.port), 2_000);
  const refusedAfter = performance.now() - sigterm;

  const outcome = await httpTurn;
  const httpDoneAfter = outcome.doneAt - sigterm;
  expect(outcome.status).toBe(200);
  expect(outcome.body.reply).toBe("Refunds take five days.");

  const close = await page.closed;
  const reply = page.frames.find((frame) => frame.type === "message" && frame.clientMessageId === widgetMessageId);
  expect(reply?.text).toBe("Refunds take five days.");
  expect(close.code).toBe(1001);
  // The reply came before the close: the visitor has it on screen before the widget reconnects.
  expect(reply!.at).toBeLessThanOrEqual(close.at);

  const exit = await app.exited;
  const exitedAfter = performance.now() - sigterm;
  expect(exit).toEqual({ code: 0, signal: null });
  // It exits once that work is done (the webhook delivery's 3 s grace is the longest), not at the bound.
  expect(exitedAfter).toBeLessThan(SHUTDOWN_DRAIN_MS);

  // Both replies are stored (the HTTP turn's conversation and the widget's).
  const stored = await db.prisma.message.count({
    where: { conversation: { agentId: agent.id }, role: "agent", text: "Refunds take five days." },
  });
  expect(stored).toBe(2);
  // The delivery is back in the queue as it was before its attempt: no claim, no lease, attempt not counted.
  const released = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
  expect(released).toMatchObject({ status: "pending", claimToken: null, lockedUntil: null, attempts: 0 });
  expect(receiver.inFlight.size).toBe(0);

  console.log(
    `shutdown: new connections refused ${Math.round(refusedAfter)} ms after SIGTERM; HTTP turn answered 200 after ${Math.round(httpDoneAfter)} ms, ` +
      `widget reply then close 1001 after ${Math.round(close.at - sigterm)} ms; webhook delivery given back; exited 0 after ${Math.round(exitedAfter)} ms ` +
      `(model delay ${MODEL_DELAY_MS} ms, drain bound ${SHUTDOWN_DRAIN_MS} ms)`,
  );
});

it("SIGTERM: a turn longer than the drain bound does not hold the process past SHUTDOWN_EXIT_MS", async () => {
  app = await startInstance("drain-bound");
  const agent = await llmAgent("drain-bound");
  const requestsBefore = fake.requests.length;
  fake.enqueue(slowResponse(60_000, textResponse("Never sent.")));
  const turn = sendTurn(app.url, agent, { message: "A question the model takes a minute to answer" }).catch((error: Error) => error);
  await until("the turn to wait on the model", () => fake.requests.length === requestsBefore + 1);

  const sigterm = performance.now();
  app.signal("SIGTERM");
  const exit = await app.exited;
  const exitedAfter = performance.now() - sigterm;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(exitedAfter).toBeGreaterThanOrEqual(SHUTDOWN_EXIT_MS - 100);
  expect(exitedAfter).toBeLessThan(SHUTDOWN_EXIT_MS + 1_000);
  // The client sees its connection end, not a reply.
  expect(await turn).toBeInstanceOf(Error);
  console.log(`shutdown: a 60 s turn cut off, exited 0 after ${Math.round(exitedAfter)} ms (bound ${SHUTDOWN_EXIT_MS} ms)`);
});
