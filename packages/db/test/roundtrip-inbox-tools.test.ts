// The inbox's working tools round-trip every field through the Prisma client (as roundtrip.test.ts
// does for the others): internal notes, with and without an author, and saved replies.
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-tools", name: "Tools" } });
  await db.prisma.user.create({ data: { id: "user-tools", workspaceId: "ws-tools", email: "sam@example.com", passwordHash: "x" } });
  await db.prisma.agent.create({ data: { id: "agent-tools", workspaceId: "ws-tools", name: "Support" } });
  await db.prisma.conversation.create({ data: { id: "conv-tools", agentId: "agent-tools" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("inbox tools round-trip every field", () => {
  it("ConversationNote, by a person and by a removed one", async () => {
    const notes = [
      { id: "note-rt", authorId: "user-tools", text: "Refund approved by finance ✓\nline two, quotes \"x\" 'y' 🎉" },
      { id: "note-rt-orphan", authorId: null, text: "n" },
    ].map((note, i) => ({ ...note, conversationId: "conv-tools", createdAt: t(`2026-11-27T10:00:0${i}.12${i}Z`) }));
    for (const note of notes) {
      await db.prisma.conversationNote.create({ data: note });
      expectAllFields("ConversationNote", note, await db.prisma.conversationNote.findUniqueOrThrow({ where: { id: note.id } }));
    }
  });

  it("SavedReply", async () => {
    const reply = {
      id: "reply-rt",
      workspaceId: "ws-tools",
      title: "Refund on its way — Ünïcode",
      text: "Hi {{visitor.name|there}},\nyour refund is on its way. 🚀",
      createdAt: t("2026-11-27T10:01:00.001Z"),
      updatedAt: t("2026-11-27T10:02:00.002Z"),
    };
    await db.prisma.savedReply.create({ data: reply });
    expectAllFields("SavedReply", reply, await db.prisma.savedReply.findUniqueOrThrow({ where: { id: reply.id } }));
  });
});
