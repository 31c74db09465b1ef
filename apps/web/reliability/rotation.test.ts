// Key rotation under load: turns run continuously on two app instances with the agent's key; the
// admin rotates the key through the real key route (POST /api/agents/{id}/http-api-key, with a
// session from the real sign-in) on one instance. No request with the old key sent after the
// rotation response arrived succeeds (every one is 401 `Invalid bearer token`), and no request
// with the new key fails. Requests already in flight while the rotation ran may go either way.
// The per-agent rate limit is raised explicitly (RATE_LIMIT_SCALE) so that no 429 muddies this.
import { performance } from "node:perf_hooks";
import { hashAgentKey } from "@parley/core/agents";
import { expect, it } from "vitest";
import { setUpTwoAppCluster } from "./support/cluster.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createAgent } from "./support/database.ts";
import { formatTally, type Outcome, request, sendTurn, signIn, sleep, tally } from "./support/http.ts";

const cluster = setUpTwoAppCluster("rotation", { RATE_LIMIT_SCALE: "100" });

interface Sent extends Outcome {
  key: "old" | "new";
}

/** Polls `done` until true; fails after `timeoutMs` saying what it waited for. */
async function waitFor(what: string, done: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

it("no old-key request succeeds after the rotation response, no new-key request fails", async () => {
  const agent = await createAgent(cluster.db, "rotation");
  const cookie = await signIn(cluster.apps[0]!.url, ADMIN_EMAIL, ADMIN_PASSWORD);
  const sent: Sent[] = [];
  let stopped = false;
  let newKey: string | undefined;

  // Each worker sends one turn after another (a new conversation each) to its instance.
  const worker = async (kind: "old" | "new", index: number) => {
    const app = cluster.apps[index % cluster.apps.length]!;
    while (!stopped) {
      const key = kind === "old" ? agent.key : newKey!;
      const outcome = await sendTurn(app.url, { id: agent.id, key }, { message: `Worker ${kind}-${index}: how do I reset my password?` });
      sent.push({ ...outcome, key: kind });
    }
  };
  const count = (filter: (s: Sent) => boolean) => sent.filter(filter).length;

  const oldWorkers = [0, 1, 2, 3].map((index) => worker("old", index));
  let newWorkers: Promise<void>[] = [];
  let rotationSentAt = 0;
  let rotatedAt = 0;
  try {
    await waitFor("20 turns with the first key", () => count((s) => s.status === 200) >= 20);
    rotationSentAt = performance.now();
    const rotation = await request(`${cluster.apps[0]!.url}/api/agents/${agent.id}/http-api-key`, {
      method: "POST",
      headers: { cookie, origin: cluster.apps[0]!.url },
    });
    rotatedAt = rotation.doneAt;
    expect(rotation.status, JSON.stringify(rotation.body)).toBe(201);
    newKey = rotation.body.data.key as string;
    newWorkers = [0, 1, 2, 3].map((index) => worker("new", index));
    await waitFor(
      "40 new-key turns and 40 old-key requests after the rotation",
      () => count((s) => s.key === "new") >= 40 && count((s) => s.key === "old" && s.sentAt > rotatedAt) >= 40,
    );
  } finally {
    stopped = true;
    await Promise.allSettled([...oldWorkers, ...newWorkers]);
  }

  const before = sent.filter((s) => s.key === "old" && s.doneAt < rotationSentAt);
  const inFlight = sent.filter((s) => s.key === "old" && s.doneAt >= rotationSentAt && s.sentAt <= rotatedAt);
  const after = sent.filter((s) => s.key === "old" && s.sentAt > rotatedAt);
  const withNewKey = sent.filter((s) => s.key === "new");

  expect(formatTally(tally(before))).toBe(`200×${before.length}`);
  expect(formatTally(tally(after))).toBe(`401×${after.length}`);
  for (const outcome of after) expect(outcome.body).toEqual({ error: "Invalid bearer token" });
  expect(formatTally(tally(withNewKey))).toBe(`200×${withNewKey.length}`);
  for (const outcome of inFlight) expect([200, 401]).toContain(outcome.status);
  const stored = await cluster.db.prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { keyHash: true } });
  expect(stored.keyHash).toBe(hashAgentKey(newKey!));

  console.log(
    `key rotation under load: ${before.length} old-key turns passed before the rotation; ${inFlight.length} in flight during it ` +
      `(${formatTally(tally(inFlight)) || "none"}); all ${after.length} old-key requests sent after the rotation response got 401; ` +
      `all ${withNewKey.length} new-key turns passed (2 instances, 4 + 4 concurrent workers, no 429)`,
  );
});
