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
