// Retention on a real database: an agent's conversations inactive longer than its days are
// erased, other agents' are kept; and the pass runs once per interval across the cluster: two
// workers on one database (two instances) make one pass, not two.
import type { Database } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateAgentInput } from "../src/agents/agents.ts";
import { eraseExpiredConversations, RetentionTask } from "../src/conversations/retention.ts";
import { retentionTask } from "../src/conversations/retention-task.ts";
import { claimJobLease } from "../src/platform/scheduler/lease.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";

const DAY = 86_400_000;
const NOW = new Date("2026-11-28T09:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-ret", name: "Retention" } });
  await db.prisma.agent.create({ data: { id: "agent-30", workspaceId: "ws-ret", name: "Thirty days", retentionDays: 30 } });
  await db.prisma.agent.create({ data: { id: "agent-forever", workspaceId: "ws-ret", name: "Keeps everything" } });
});

afterAll(async () => {
  await db.close();
});

async function conversation(id: string, agentId: string, lastActive: Date) {
  await db.prisma.conversation.create({
    data: {
      id,
      agentId,
      visitorName: `Visitor ${id}`,
      messageCount: 1,
      messages: { create: { role: "user", text: `text of ${id}`, sequence: 0 } },
      createdAt: lastActive,
      updatedAt: lastActive,
    },
  });
}

async function erasedIds(): Promise<string[]> {
  const rows = await db.prisma.conversation.findMany({ where: { erasedAt: { not: null } }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

async function resetLease() {
  await db.prisma.jobLease.deleteMany({});
}

describe("retention", () => {
  it("the agent setting takes 1 to 3650 days, or none (keep forever)", () => {
    const parse = (retentionDays: unknown) => updateAgentInput.safeParse({ id: "agent-30", retentionDays });
    for (const good of [1, 30, 3650, null]) expect(parse(good).success, String(good)).toBe(true);
    for (const bad of [0, 3651, 1.5, -1, "30"]) expect(parse(bad).success, String(bad)).toBe(false);
    expect(parse(0).error?.issues[0]?.message).toBe("Enter a whole number of days from 1 to 3650, or leave empty to keep conversations");
  });

  it("erases an agent's conversations inactive longer than its days; keeps newer ones and agents without the setting", async () => {
    await conversation("old-30", "agent-30", daysAgo(31));
    await conversation("new-30", "agent-30", daysAgo(29));
    await conversation("old-forever", "agent-forever", daysAgo(900));

    expect(await eraseExpiredConversations(db, NOW)).toBe(1);
    expect(await erasedIds()).toEqual(["old-30"]);
    const message = await db.prisma.message.findFirstOrThrow({ where: { conversationId: "old-30" } });
    expect(message.text).toBe("");
    expect((await db.prisma.conversation.findUniqueOrThrow({ where: { id: "old-30" } })).visitorName).toBeNull();
    // Nothing left to erase: a second pass erases nothing more.
    expect(await eraseExpiredConversations(db, NOW)).toBe(0);
  });

  it("a lease is claimed by exactly one of many claimants at once, and again only after its interval", async () => {
    await resetLease();
    const job = (holder: string) => ({ name: "retention", holder, intervalMs: 3_600_000, leaseMs: 3_600_000 });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimJobLease(db as Database, job(`instance-${i}`), NOW)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // The holder finished (lease released): still not due until the interval has passed.
    await db.prisma.jobLease.update({ where: { name: "retention" }, data: { holder: null, lockedUntil: null } });
    expect(await claimJobLease(db, job("late"), new Date(NOW.getTime() + 3_599_000))).toBe(false);
    expect(await claimJobLease(db, job("next-hour"), new Date(NOW.getTime() + 3_600_000))).toBe(true);
  });

  it("two workers on one database (two instances) run one pass, not two", async () => {
    await resetLease();
    await conversation("old-30-b", "agent-30", daysAgo(40));
    const tasks = [new RetentionTask({ db, now: () => NOW }), new RetentionTask({ db, now: () => NOW })];
    const workers = tasks.map((task, index) =>
      new Scheduler({ db, name: ["a", "b"][index], now: () => NOW }).add(retentionTask(task)).start(),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    await Promise.all(workers.map((worker) => worker.stop()));

    expect(tasks[0]!.passes + tasks[1]!.passes).toBe(1);
    expect((await db.prisma.jobLease.findUniqueOrThrow({ where: { name: "retention" } })).runs).toBe(1);
    expect(await erasedIds()).toEqual(["old-30", "old-30-b"]);
    // The lease is released after the pass (a crashed holder's lease would expire instead).
    expect(await db.prisma.jobLease.findUniqueOrThrow({ where: { name: "retention" } })).toMatchObject({ holder: null, lockedUntil: null });
  });
});
