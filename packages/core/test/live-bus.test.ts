// Live events for widget visitors (core/widget/live.ts): an admin's reply published on one instance
// reaches the visitor's socket on another. In process always; across two buses on one real Redis
// when REDIS_URL is set (as in CI's server-mode run).
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createLiveBus, inboxChannel, type LiveBus, type LiveEvent, publishInbox } from "../src/conversations/live.ts";

const redisUrl = process.env.REDIS_URL || undefined;
const opened: LiveBus[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});

function open(options: { redisUrl?: string }): LiveBus {
  const bus = createLiveBus(options);
  opened.push(bus);
  return bus;
}

const status = (value: "active" | "escalated"): LiveEvent => ({ type: "status", status: value });

/** Publishes until the listener has heard `expected` (a Redis subscription starts asynchronously). */
async function publishUntilHeard(publisher: LiveBus, conversationId: string, heard: LiveEvent[], expected: LiveEvent): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!heard.some((event) => JSON.stringify(event) === JSON.stringify(expected))) {
    if (Date.now() > deadline) throw new Error("the event never arrived");
    await publisher.publish(conversationId, expected);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("live bus in process", () => {
  it("delivers to the conversation's listeners only, until they unsubscribe", async () => {
    const bus = open({});
    expect(bus.kind).toBe("memory");
    const heard: LiveEvent[] = [];
    const other: LiveEvent[] = [];
    const stop = bus.subscribe("conv-1", (event) => heard.push(event));
    bus.subscribe("conv-2", (event) => other.push(event));
    await bus.publish("conv-1", status("escalated"));
    stop();
    await bus.publish("conv-1", status("active"));
    expect(heard).toEqual([status("escalated")]);
    expect(other).toEqual([]);
  });
});

describe.skipIf(!redisUrl)("live bus across two instances on one Redis (REDIS_URL)", () => {
  it("a publish on one instance reaches the subscriber on the other; unsubscribing stops it", async () => {
    const panelInstance = open({ redisUrl });
    const socketInstance = open({ redisUrl });
    expect([panelInstance.kind, socketInstance.kind]).toEqual(["redis", "redis"]);
    const conversationId = `live-test-${randomBytes(6).toString("hex")}`;
    const heard: LiveEvent[] = [];
    const stop = socketInstance.subscribe(conversationId, (event) => heard.push(event));

    await publishUntilHeard(panelInstance, conversationId, heard, status("escalated"));
    const message: LiveEvent = {
      type: "message",
      message: {
        id: "m1",
        role: "human",
        text: "A person here: happy to help.",
        richContent: [],
        toolCalls: [],
        createdAt: new Date(0).toISOString(),
      },
    };
    await publishUntilHeard(panelInstance, conversationId, heard, message);

    stop();
    const count = heard.length;
    await panelInstance.publish(conversationId, status("active"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.length).toBe(count);
  });

  it("an inbox change on one instance reaches the panels of its workspace on the other, not another workspace's", async () => {
    const turnInstance = open({ redisUrl });
    const panelInstance = open({ redisUrl });
    const workspace = `ws-${randomBytes(6).toString("hex")}`;
    const heard: LiveEvent[] = [];
    const elsewhere: LiveEvent[] = [];
    panelInstance.subscribe(inboxChannel(workspace), (event) => heard.push(event));
    panelInstance.subscribe(inboxChannel(`${workspace}-other`), (event) => elsewhere.push(event));
    const change: LiveEvent = { type: "inbox", conversationId: "conv-1", escalated: true };
    const deadline = Date.now() + 5_000;
    while (heard.length === 0) {
      if (Date.now() > deadline) throw new Error("the inbox event never arrived");
      await publishInbox(turnInstance, workspace, { conversationId: "conv-1", escalated: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(heard[0]).toEqual(change);
    expect(elsewhere).toEqual([]);
  });
});
