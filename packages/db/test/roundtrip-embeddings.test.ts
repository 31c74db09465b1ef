// The semantic-retrieval models round-trip every field through the Prisma client (as
// roundtrip.test.ts does for the others), on whichever database mode the run uses; deleting a
// passage vector leaves its row in PassageEmbeddingDeletion (the database's trigger).
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllFields } from "./support/fields.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.workspace.create({ data: { id: "ws-emb", name: "Embeddings" } });
  await db.prisma.source.create({ data: { id: "src-emb", workspaceId: "ws-emb", name: "Docs" } });
  await db.prisma.article.create({ data: { id: "art-emb", sourceId: "src-emb", title: "Refunds", content: "## When\nWithin 30 days." } });
});
afterAll(async () => {
  await db.close();
});

const t = (iso: string) => new Date(iso);

describe("semantic-retrieval models round-trip every field", () => {
  it("ArticleEmbedding, PassageEmbedding and PassageEmbeddingDeletion", async () => {
    const state = {
      articleId: "art-emb",
      model: "text-embedding-3-small@256",
      embeddedVersion: t("2026-11-20T12:00:00.001Z"),
      attempts: 3,
      nextAttemptAt: t("2026-11-20T12:05:00.002Z"),
      claimToken: "claim-ä-🚀",
      lockedUntil: t("2026-11-20T12:01:00.003Z"),
      lastError: 'HTTP 503 "busy"',
    };
    await db.prisma.articleEmbedding.create({ data: state });
    expectAllFields(
      "ArticleEmbedding",
      state,
      await db.prisma.articleEmbedding.findUniqueOrThrow({ where: { articleId_model: { articleId: "art-emb", model: state.model } } }),
    );

    const vector = new Uint8Array(new Float32Array([0.6, -0.8, 0, 1e-7]).buffer);
    const passage = {
      articleId: "art-emb",
      model: state.model,
      section: 1,
      sourceId: "src-emb",
      textHash: "f".repeat(64),
      vector,
      updatedAt: t("2026-11-20T12:00:00.004Z"),
    };
    await db.prisma.passageEmbedding.create({ data: passage });
    const read = await db.prisma.passageEmbedding.findUniqueOrThrow({
      where: { articleId_model_section: { articleId: "art-emb", model: state.model, section: 1 } },
    });
    expectAllFields("PassageEmbedding", { ...passage, vector: Buffer.from(vector) }, { ...read, vector: Buffer.from(read.vector) });
    expect(Array.from(new Float32Array(new Uint8Array(read.vector).buffer))).toEqual(Array.from(new Float32Array(vector.buffer)));

    await db.prisma.passageEmbedding.delete({
      where: { articleId_model_section: { articleId: "art-emb", model: state.model, section: 1 } },
    });
    const [deletion] = await db.prisma.passageEmbeddingDeletion.findMany();
    expect(deletion).toMatchObject({ model: state.model, articleId: "art-emb", section: 1 });
    expect(deletion?.deletedAt).toBeInstanceOf(Date);
    const written = { id: 9_007_199_254_740_993n, model: "m", articleId: "a", section: 0, deletedAt: t("2026-11-20T12:00:00.005Z") };
    await db.prisma.passageEmbeddingDeletion.create({ data: written });
    expectAllFields(
      "PassageEmbeddingDeletion",
      written,
      await db.prisma.passageEmbeddingDeletion.findUniqueOrThrow({ where: { id: written.id } }),
    );
  });
});
