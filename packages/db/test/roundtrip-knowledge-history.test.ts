// Article history, visitors' votes and unanswered questions round-trip every field through the
// Prisma client (as roundtrip.test.ts does for the others).
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-hist", name: "History" } });
  await db.prisma.user.create({ data: { id: "user-hist", workspaceId: "ws-hist", email: "kim@example.com", passwordHash: "x" } });
  await db.prisma.agent.create({ data: { id: "agent-hist", workspaceId: "ws-hist", name: "Support" } });
  await db.prisma.source.create({ data: { id: "src-hist", workspaceId: "ws-hist", name: "Docs" } });
  await db.prisma.article.create({ data: { id: "art-hist", sourceId: "src-hist", title: "Refunds", content: "Body" } });
  await db.prisma.conversation.create({ data: { id: "conv-hist", agentId: "agent-hist" } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("knowledge history round-trips every field", () => {
  it("Article.publishAt", async () => {
    const publishAt = t("2026-12-01T09:00:00.123Z");
    await db.prisma.article.update({ where: { id: "art-hist" }, data: { publishAt } });
    expect((await db.prisma.article.findUniqueOrThrow({ where: { id: "art-hist" } })).publishAt).toEqual(publishAt);
  });

  it("ArticleRevision, by a person and by nobody (the scheduled publication)", async () => {
    const revisions = [
      { id: "rev-rt", authorId: "user-hist", published: true, title: "Refunds — Ünïcode 🎉", content: "# Refunds\n\n\"x\" 'y'\nline two" },
      { id: "rev-rt-system", authorId: null, published: false, title: "t", content: "c" },
    ].map((revision, i) => ({ ...revision, articleId: "art-hist", createdAt: t(`2026-11-28T10:00:0${i}.45${i}Z`) }));
    for (const revision of revisions) {
      await db.prisma.articleRevision.create({ data: revision });
      expectAllFields("ArticleRevision", revision, await db.prisma.articleRevision.findUniqueOrThrow({ where: { id: revision.id } }));
    }
  });

  it("ArticleFeedback", async () => {
    const vote = {
      id: "vote-rt",
      articleId: "art-hist",
      helpful: false,
      voterHash: "a".repeat(64),
      createdAt: t("2026-11-28T11:00:00.001Z"),
    };
    await db.prisma.articleFeedback.create({ data: vote });
    expectAllFields("ArticleFeedback", vote, await db.prisma.articleFeedback.findUniqueOrThrow({ where: { id: vote.id } }));
  });

  it("KnowledgeGap of each kind, from a conversation and from a help search", async () => {
    const kinds = ["unanswered", "handoff", "not_helpful", "no_search_result"] as const;
    for (const [i, kind] of kinds.entries()) {
      const gap = {
        id: `gap-rt-${i}`,
        agentId: "agent-hist",
        conversationId: kind === "no_search_result" ? null : "conv-hist",
        kind,
        question: "Can I pay with PayPal? — Ünïcode 🎉",
        normalized: "paypal pay",
        createdAt: t(`2026-11-28T12:00:0${i}.00${i}Z`),
        // Dismissed and open both round-trip.
        dismissedAt: i % 2 === 0 ? null : t(`2026-11-29T08:00:0${i}.00${i}Z`),
      };
      await db.prisma.knowledgeGap.create({ data: gap });
      expectAllFields("KnowledgeGap", gap, await db.prisma.knowledgeGap.findUniqueOrThrow({ where: { id: gap.id } }));
    }
  });
});
