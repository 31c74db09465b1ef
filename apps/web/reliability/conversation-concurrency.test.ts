// Concurrency on one conversation: 10 simultaneous turns in one conversation, sent to two app
// instances sharing the database, all answer 200 and all persist: the conversation's messages are
// numbered 0..21 without a gap or a duplicate, each turn's user message directly followed by its
// reply, and every message sent is stored exactly once.
import { expect, it } from "vitest";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { agentRows, createAgent } from "./support/database.ts";
import { formatTally, sendTurn, tally } from "./support/http.ts";

const cluster = setUpTwoAppCluster("conversation");

it("10 simultaneous turns in one conversation all persist, in a consistent order, none lost", async () => {
  const agent = await createAgent(cluster.db, "conversation");
  const first = await sendTurn(cluster.apps[0]!.url, agent, { message: "Hello, I have a few questions." });
  expect(first.status).toBe(200);
  const conversationId = first.body.conversationId as string;

  const texts = Array.from({ length: 10 }, (_, index) => `Question ${index + 1} of 10: how do I get a refund for invoice ${index + 1}?`);
  const outcomes = await Promise.all(
    texts.map((message, index) => sendTurn(cluster.apps[index % 2]!.url, agent, { message, conversationId })),
  );
  const counts = tally(outcomes);
  expect(counts, formatTally(counts)).toEqual({ 200: 10 });
  for (const outcome of outcomes) expect(outcome.body.conversationId).toBe(conversationId);

  const conversation = await cluster.db.prisma.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    include: { messages: { orderBy: { sequence: "asc" } } },
  });
  const { messages } = conversation;
  expect(conversation.messageCount).toBe(22);
  expect(messages.map((m) => m.sequence)).toEqual(Array.from({ length: 22 }, (_, index) => index));
  // Each turn is a pair: its user message at an even sequence, its reply right after.
  expect(messages.map((m) => m.role)).toEqual(Array.from({ length: 22 }, (_, index) => (index % 2 === 0 ? "user" : "agent")));
  const userTexts = messages.filter((m) => m.role === "user").map((m) => m.text);
  expect([...userTexts].sort()).toEqual(["Hello, I have a few questions.", ...texts].sort());
  texts.forEach((text, index) => {
    const at = messages.findIndex((m) => m.role === "user" && m.text === text);
    expect(messages[at + 1]?.text).toBe(outcomes[index]!.body.reply);
  });
  const rows = await agentRows(cluster.db, agent.id);
  expect(rows.usage[0]).toMatchObject({ conversations: 1, turns: 11 });

  const order = texts.map((text) => messages.findIndex((m) => m.role === "user" && m.text === text) / 2);
  console.log(
    `conversation concurrency: 10/10 simultaneous turns (over 2 instances) answered 200; 22 messages stored with sequences 0..21, ` +
      `no gap or duplicate, each of the 10 messages once and followed by its own reply (commit order of turns 1..10: ${order.join(",")}); usage 11 turns`,
  );
});
