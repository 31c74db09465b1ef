-- Semantic retrieval: the embeddings worker's per-article state, and the passages' vectors
-- (float32 in a portable bytea column; the in-process index is built from them).

-- CreateTable
CREATE TABLE "ArticleEmbedding" (
    "articleId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "embeddedVersion" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimToken" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,

    CONSTRAINT "ArticleEmbedding_pkey" PRIMARY KEY ("articleId","model")
);

-- CreateTable
CREATE TABLE "PassageEmbedding" (
    "articleId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "section" INTEGER NOT NULL,
    "sourceId" TEXT NOT NULL,
    "textHash" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PassageEmbedding_pkey" PRIMARY KEY ("articleId","model","section")
);

-- CreateIndex
CREATE INDEX "ArticleEmbedding_model_nextAttemptAt_idx" ON "ArticleEmbedding"("model", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "PassageEmbedding_model_updatedAt_idx" ON "PassageEmbedding"("model", "updatedAt");

-- AddForeignKey
ALTER TABLE "ArticleEmbedding" ADD CONSTRAINT "ArticleEmbedding_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PassageEmbedding" ADD CONSTRAINT "PassageEmbedding_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Deleted passages, for the instances' in-process indexes to drop them too (including the deletes
-- that cascade from an article's deletion, which no application code sees). Written by a trigger,
-- pruned by the embeddings worker.
CREATE TABLE "PassageEmbeddingDeletion" (
    "id" BIGSERIAL NOT NULL,
    "model" TEXT NOT NULL,
    "articleId" TEXT NOT NULL,
    "section" INTEGER NOT NULL,
    "deletedAt" TIMESTAMP(3) NOT NULL DEFAULT (clock_timestamp() AT TIME ZONE 'UTC'),

    CONSTRAINT "PassageEmbeddingDeletion_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "PassageEmbeddingDeletion_deletedAt_idx" ON "PassageEmbeddingDeletion"("deletedAt");

CREATE FUNCTION "passage_embedding_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PassageEmbeddingDeletion" ("model", "articleId", "section") VALUES (OLD."model", OLD."articleId", OLD."section");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "PassageEmbedding_deleted" AFTER DELETE ON "PassageEmbedding"
FOR EACH ROW EXECUTE FUNCTION "passage_embedding_deleted"();
