// Quota race: 50 concurrent new conversations on an agent with 10 conversations left this month,
// spread over two app instances sharing the database. The quota is reserved atomically in
// PostgreSQL, so exactly 10 succeed, the other 40 get 402, and the month's counter grows by 10.
// (The per-agent limit of 30 requests a minute is raised tenfold here, explicitly, so that it is
// the quota and not the rate limit that answers.)
import { usageMonth } from "@parley/core/usage";
import { expect, it } from "vitest";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { agentRows, createAgent } from "./support/database.ts";
import { formatTally, sendTurn, tally } from "./support/http.ts";

const cluster = setUpTwoAppCluster("quota", { RATE_LIMIT_SCALE: "10" });

it("50 concurrent new conversations with 10 left: exactly 10 succeed, 40 get 402, usage +10", async () => {
  const limit = 25;
  const used = 15;
  const agent = await createAgent(cluster.db, "quota", { monthlyConversationLimit: limit });
  const month = usageMonth(new Date());
  await cluster.db.prisma.usageMonth.create({ data: { agentId: agent.id, month, conversations: used, tokens: 0, turns: used } });

  const outcomes = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      sendTurn(cluster.apps[index % cluster.apps.length]!.url, agent, { message: `Question ${index + 1}: how do I reset my password?` }),
    ),
  );

  const counts = tally(outcomes);
  expect(counts, formatTally(counts)).toEqual({ 200: 10, 402: 40 });
  for (const outcome of outcomes.filter((o) => o.status === 402)) {
    expect(outcome.body).toEqual({ error: "Monthly conversation quota exhausted" });
  }
  const conversationIds = new Set(outcomes.filter((o) => o.status === 200).map((o) => o.body.conversationId as string));
  expect(conversationIds.size).toBe(10);

  const rows = await agentRows(cluster.db, agent.id);
  expect(rows.usage).toEqual([expect.objectContaining({ month, conversations: used + 10, turns: used + 10 })]);
  expect(rows.conversations).toBe(10);
  expect(rows.messages).toBe(20);
  const perInstance = cluster.apps.map(
    (_app, index) => outcomes.filter((o, i) => i % cluster.apps.length === index && o.status === 200).length,
  );
  console.log(
    `quota race: 10 passed, 40 got 402, usage +10 (conversations ${used} -> ${rows.usage[0]!.conversations} of ${limit}); ` +
      `passes per instance ${perInstance.join(" + ")}; ${rows.conversations} conversations and ${rows.messages} messages stored`,
  );
});
