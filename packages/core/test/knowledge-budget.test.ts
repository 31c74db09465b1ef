// The knowledge index's memory budget: an agent whose articles' text is over it is answered from
// the database search (never read into memory), says so in its status, and other agents' indexes
// are dropped, least recently used first, to keep the instance within it. Real database.

import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/demo/seed.ts";
import { createKnowledgeEngine } from "../src/engine/knowledge.ts";
import type { Engine, EngineInput } from "../src/engine/types.ts";
import { KNOWLEDGE_INDEX_MAX_TEXT_BYTES } from "../src/knowledge/limits.ts";
import { agentIndex, heldKnowledgeIndexes, knowledgeIndexStatus } from "../src/knowledge/search/agent-index.ts";

let db: TestDatabase;
let engine: Engine;

const WORDS =
  "account billing browser calendar channel contact dashboard device domain export folder invoice language mailbox member message mobile network notification payment permission profile report schedule security session storage subscription team upload".split(
    " ",
  );

/** About `chars` characters of plain sentences, different for each seed. */
function filler(chars: number, seedValue: number): string {
  const sentences: string[] = [];
  let x = seedValue;
  let length = 0;
  while (length < chars) {
    const words: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      x = (x * 1103515245 + 12345) % 2147483648;
      words.push(WORDS[x % WORDS.length]!);
    }
    const sentence = `${words.join(" ")}.`;
    sentences.push(sentence.charAt(0).toUpperCase() + sentence.slice(1));
    length += sentence.length + 1;
  }
  return sentences.join(" ");
}

/** A source of `count` published articles of ~99,000 characters, linked to `agentIds`. */
async function bigSource(id: string, agentIds: string[], count: number, offset: number): Promise<void> {
  await db.prisma.source.create({ data: { id, workspaceId: "ws-demo", name: id } });
  await db.prisma.agentSource.createMany({ data: agentIds.map((agentId) => ({ agentId, sourceId: id })) });
  for (let i = 0; i < count; i += 10) {
    await db.prisma.article.createMany({
      data: Array.from({ length: Math.min(10, count - i) }, (_, j) => {
        const n = offset + i + j;
        return {
          id: `${id}-${n}`,
          sourceId: id,
          slug: `${id}-${n}`,
          title: `Long guide number ${n}`,
          content: filler(99_000, n + 1),
          published: true,
          language: "en",
        };
      }),
    });
  }
}

function input(agentId: string, message: string): EngineInput {
  return {
    agent: { id: agentId, name: "Test", engine: "knowledge", instructions: "" },
    history: [],
    message,
    visitor: {},
    variables: {},
    status: "active",
  };
}

function cited(result: Awaited<ReturnType<Engine["run"]>>): string[] {
  const item = result.richContent.find((content) => content.type === "articles");
  return item?.type === "articles" ? item.articles.map((article) => article.id) : [];
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seed(db, { adminEmail: "admin@example.com", adminPassword: "test-password-1" });
  engine = createKnowledgeEngine({ db, appUrl: "https://parley.example" });
  const workspace = await db.prisma.agent.findUniqueOrThrow({ where: { id: "demo" }, select: { workspaceId: true } });
  expect(workspace.workspaceId).toBe("ws-demo");
  for (const id of ["half-a", "half-b"]) {
    await db.prisma.agent.create({ data: { id, workspaceId: "ws-demo", name: id, engine: "knowledge", active: true } });
  }
  // Each half is a little over half the budget; the demo agent sees both, so it is over it.
  const perHalf = Math.ceil(KNOWLEDGE_INDEX_MAX_TEXT_BYTES / 2 / 99_000) + 1;
  await bigSource("src-big-a", ["demo", "half-a"], perHalf, 0);
  await bigSource("src-big-b", ["demo", "half-b"], perHalf, perHalf);
  await db.prisma.article.update({
    where: { id: "src-big-b-70" },
    data: {
      title: "Configure the zephyr gateway",
      content: `To configure the zephyr gateway, open Settings and choose Gateway. ${filler(2_000, 7)}`,
    },
  });
  await db.prisma.article.update({
    where: { id: "src-big-a-3" },
    data: {
      title: "Rotate the quokka credentials",
      content: `To rotate the quokka credentials, open Keys and choose Rotate. ${filler(2_000, 8)}`,
    },
  });
}, 240_000);

afterAll(async () => {
  await db.close();
});

describe("an agent over the memory budget", () => {
  it("is measured, not read: its status says the database search, with its text size", async () => {
    const status = await knowledgeIndexStatus(db, "demo");
    expect(status.search).toBe("database");
    expect(status.budgetBytes).toBe(KNOWLEDGE_INDEX_MAX_TEXT_BYTES);
    expect(status.textBytes).toBeGreaterThan(KNOWLEDGE_INDEX_MAX_TEXT_BYTES);
    const index = await agentIndex(db, "demo");
    expect("overBudget" in index).toBe(true);
    expect(heldKnowledgeIndexes().some((held) => held.agentId === "demo")).toBe(false);
  });

  it("still answers from the right article, found by the database search", async () => {
    const password = await engine.run(input("demo", "How do I reset my password?"));
    expect(cited(password)[0]).toBe("art-reset-password");
    expect(password.reply.startsWith("From “How to reset your password”:\n\n1. Go to the sign-in page")).toBe(true);

    const gateway = await engine.run(input("demo", "how can I configure the zephyr gateway?"));
    expect(cited(gateway)[0]).toBe("src-big-b-70");
    expect(gateway.reply).toContain("open Settings and choose Gateway");
  });

  it("says it does not know when nothing matches", async () => {
    const result = await engine.run(input("demo", "quasar xylophone marmalade"));
    expect(cited(result)).toEqual([]);
    expect(result.richContent).toContainEqual({ type: "buttons", buttons: [{ label: "Talk to a person", action: "handoff" }] });
  });
});

describe("agents within the budget", () => {
  it("are held in memory until another agent's index needs the room: the least recently used goes", async () => {
    const a = await knowledgeIndexStatus(db, "half-a");
    expect(a.search).toBe("in-process");
    await agentIndex(db, "half-a");
    expect(heldKnowledgeIndexes().map((held) => held.agentId)).toContain("half-a");

    await agentIndex(db, "half-b");
    const held = heldKnowledgeIndexes();
    expect(held.map((entry) => entry.agentId)).toContain("half-b");
    expect(held.map((entry) => entry.agentId)).not.toContain("half-a");
    expect(held.reduce((sum, entry) => sum + entry.textBytes, 0)).toBeLessThanOrEqual(KNOWLEDGE_INDEX_MAX_TEXT_BYTES);

    // Built at the same time (both changed), they still hold no more than the budget together.
    await db.prisma.article.updateMany({ where: { id: { in: ["src-big-a-1", "src-big-b-80"] } }, data: { updatedAt: new Date() } });
    await Promise.all([agentIndex(db, "half-a"), agentIndex(db, "half-b")]);
    const together = heldKnowledgeIndexes();
    expect(together).toHaveLength(1);
    expect(together.reduce((sum, entry) => sum + entry.textBytes, 0)).toBeLessThanOrEqual(KNOWLEDGE_INDEX_MAX_TEXT_BYTES);

    // The dropped agent is built again on its next turn, and answers.
    const result = await engine.run(input("half-a", "How do I rotate the quokka credentials?"));
    expect(cited(result)[0]).toBe("src-big-a-3");
    expect(heldKnowledgeIndexes().map((entry) => entry.agentId)).toEqual(["half-a"]);
  });

  it("answer the turn after a change of a large index from the change (the previous index is let go, the turn waits)", async () => {
    await db.prisma.article.update({
      where: { id: "src-big-a-3" },
      data: {
        title: "Rotate the wombat credentials",
        content: `To rotate the wombat credentials, open Keys and choose Rotate. ${filler(2_000, 9)}`,
      },
    });
    const result = await engine.run(input("half-a", "How do I rotate the wombat credentials?"));
    expect(cited(result)[0]).toBe("src-big-a-3");
    expect(result.reply).toContain("Rotate the wombat credentials");
    expect(heldKnowledgeIndexes().map((entry) => entry.agentId)).toEqual(["half-a"]);
  });
});
