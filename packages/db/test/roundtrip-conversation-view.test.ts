// When each person last opened each conversation (the inbox's unread state) round-trips every field
// through the Prisma client (as roundtrip.test.ts does for the others), one row per person and
// conversation, removed with either.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-view", name: "Views" } });
  await db.prisma.agent.create({ data: { id: "agent-view", workspaceId: "ws-view", name: "Support" } });
  for (const id of ["user-view-1", "user-view-2"]) {
    await db.prisma.user.create({ data: { id, workspaceId: "ws-view", email: `${id}@example.com`, name: id, passwordHash: "x" } });
  }
  for (const id of ["conv-view-1", "conv-view-2"]) await db.prisma.conversation.create({ data: { id, agentId: "agent-view" } });
});
afterAll(async () => {
  await db.close();
});

const key = (userId: string, conversationId: string) => ({ userId_conversationId: { userId, conversationId } });

describe("conversation views round-trip every field", () => {
  it("ConversationView: per person and conversation, to the millisecond", async () => {
    const row = { userId: "user-view-1", conversationId: "conv-view-1", viewedAt: new Date("2026-12-05T09:30:00.123Z") };
    await db.prisma.conversationView.create({ data: row });
    expectAllFields(
      "ConversationView",
      row,
      await db.prisma.conversationView.findUniqueOrThrow({ where: key(row.userId, row.conversationId) }),
    );
  });

  it("one row per person and conversation, removed with the conversation or the person", async () => {
    const again = { userId: "user-view-1", conversationId: "conv-view-1", viewedAt: new Date() };
    await expect(db.prisma.conversationView.create({ data: again })).rejects.toThrow();
    await db.prisma.conversationView.createMany({
      data: [
        { userId: "user-view-2", conversationId: "conv-view-1", viewedAt: new Date() },
        { userId: "user-view-2", conversationId: "conv-view-2", viewedAt: new Date() },
      ],
    });
    await db.prisma.conversation.delete({ where: { id: "conv-view-1" } });
    expect(await db.prisma.conversationView.count({ where: { conversationId: "conv-view-1" } })).toBe(0);
    await db.prisma.user.delete({ where: { id: "user-view-2" } });
    expect(await db.prisma.conversationView.count()).toBe(0);
  });
});
