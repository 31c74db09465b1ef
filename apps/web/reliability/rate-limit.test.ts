// Rate limit across instances: two app processes share one Redis (and one database) with the
// limits as shipped (30 turns a minute per agent). 60 concurrent turns on one agent, 30 sent to
// each instance: exactly 30 pass in total, so the instances share the window; the rest get 429.
import { expect, it } from "vitest";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { agentRows, createAgent } from "./support/database.ts";
import { formatTally, sendTurn, sleep, tally } from "./support/http.ts";

const cluster = setUpTwoAppCluster("ratelimit");

it("60 concurrent turns on one agent over two instances: exactly 30 pass, 30 get 429", async () => {
  const agent = await createAgent(cluster.db, "ratelimit");
  // The sliding window counts the previous minute (windows start on whole minutes) weighted by the
  // share of it still in view: a burst that straddles a boundary and lasts seconds may get a few
  // more than 30 through in total. Start it well inside a minute, so that 30 is exact.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 54_000) await sleep(60_000 - intoMinute + 250);
  const outcomes = await Promise.all(
    Array.from({ length: 60 }, (_, index) =>
      sendTurn(cluster.apps[index % 2]!.url, agent, { message: `Turn ${index + 1}: how do refunds work?` }),
    ),
  );

  const counts = tally(outcomes);
  expect(counts, formatTally(counts)).toEqual({ 200: 30, 429: 30 });
  for (const outcome of outcomes) {
    expect(outcome.headers.get("ratelimit-policy")).toBe('"messages";q=30;w=60');
    if (outcome.status !== 429) continue;
    expect(outcome.body).toEqual({ error: "Rate limit exceeded" });
    expect(Number(outcome.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  }
  const rows = await agentRows(cluster.db, agent.id);
  expect(rows.conversations).toBe(30);
  expect(rows.usage[0]).toMatchObject({ conversations: 30, turns: 30 });

  const passed = [0, 1].map((instance) => outcomes.filter((o, i) => i % 2 === instance && o.status === 200).length);
  console.log(
    `rate limit across instances: 60 concurrent turns (30 to each of 2 instances sharing Redis): 30 passed ` +
      `(${passed[0]} + ${passed[1]}), 30 got 429 with Retry-After; ${rows.conversations} conversations stored`,
  );
});
