// The visitor's satisfaction ratings round-trip every field through the Prisma client (as
// roundtrip.test.ts does for the others): each value, with words and without (erased).
import { ConversationRatingValue } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-rating", name: "Ratings" } });
  await db.prisma.agent.create({ data: { id: "agent-rating", workspaceId: "ws-rating", name: "Support" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("conversation ratings round-trip every field", () => {
  it("ConversationRating: good, okay and bad, with a comment and without", async () => {
    const values = [ConversationRatingValue.good, ConversationRatingValue.okay, ConversationRatingValue.bad];
    for (const [i, rating] of values.entries()) {
      const conversationId = `conv-rating-${i}`;
      await db.prisma.conversation.create({ data: { id: conversationId, agentId: "agent-rating", status: "resolved" } });
      const row = {
        id: `rating-rt-${i}`,
        conversationId,
        rating,
        comment: i === 2 ? null : `Quick «and» kind — thank you 🚀\nline two, "quotes" 'x' ${"é".repeat(i)}`,
        createdAt: t(`2026-12-04T10:00:0${i}.12${i}Z`),
        updatedAt: t(`2026-12-04T10:05:0${i}.45${i}Z`),
      };
      await db.prisma.conversationRating.create({ data: row });
      expectAllFields("ConversationRating", row, await db.prisma.conversationRating.findUniqueOrThrow({ where: { id: row.id } }));
    }
  });

  it("one rating per conversation, removed with its conversation", async () => {
    const data = { conversationId: "conv-rating-0", rating: ConversationRatingValue.bad, updatedAt: new Date() };
    await expect(db.prisma.conversationRating.create({ data })).rejects.toThrow();
    await db.prisma.conversation.delete({ where: { id: "conv-rating-0" } });
    expect(await db.prisma.conversationRating.count({ where: { conversationId: "conv-rating-0" } })).toBe(0);
  });
});
