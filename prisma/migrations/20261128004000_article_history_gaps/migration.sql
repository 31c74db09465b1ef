-- Article history (revisions, scheduled publication), visitors' "Was this helpful?" votes and
-- the questions nobody answered (the panel's gaps page).
ALTER TABLE "Article" ADD COLUMN "publishAt" TIMESTAMP(3);

CREATE TYPE "KnowledgeGapKind" AS ENUM ('unanswered', 'handoff', 'not_helpful', 'no_search_result');

CREATE TABLE "ArticleRevision" (
    "id" TEXT NOT NULL,
    "articleId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL,
    "authorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArticleRevision_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "ArticleFeedback" (
    "id" TEXT NOT NULL,
    "articleId" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "voterHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArticleFeedback_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "KnowledgeGap" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "kind" "KnowledgeGapKind" NOT NULL,
    "question" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnowledgeGap_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "Article_publishAt_idx" ON "Article"("publishAt");

CREATE INDEX "ArticleRevision_articleId_createdAt_idx" ON "ArticleRevision"("articleId", "createdAt" DESC);

CREATE UNIQUE INDEX "ArticleFeedback_articleId_voterHash_key" ON "ArticleFeedback"("articleId", "voterHash");

CREATE INDEX "KnowledgeGap_agentId_createdAt_idx" ON "KnowledgeGap"("agentId", "createdAt");

ALTER TABLE "ArticleRevision" ADD CONSTRAINT "ArticleRevision_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ArticleRevision" ADD CONSTRAINT "ArticleRevision_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "ArticleFeedback" ADD CONSTRAINT "ArticleFeedback_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "KnowledgeGap" ADD CONSTRAINT "KnowledgeGap_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
