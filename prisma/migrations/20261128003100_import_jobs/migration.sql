-- Bulk imports of articles into a source (background jobs), and where an imported article came
-- from so that importing it again updates it.
ALTER TABLE "Article" ADD COLUMN "sourceUrl" TEXT;
CREATE UNIQUE INDEX "Article_sourceId_sourceUrl_key" ON "Article"("sourceId", "sourceUrl");

CREATE TYPE "ImportKind" AS ENUM ('markdown_zip', 'urls', 'zendesk', 'intercom');
CREATE TYPE "ImportStatus" AS ENUM ('queued', 'running', 'done', 'failed');

CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "createdById" TEXT,
    "kind" "ImportKind" NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'queued',
    "payload" BYTEA,
    "total" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "report" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "claimToken" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ImportJob_status_createdAt_idx" ON "ImportJob"("status", "createdAt");
CREATE INDEX "ImportJob_sourceId_createdAt_idx" ON "ImportJob"("sourceId", "createdAt" DESC);
CREATE INDEX "ImportJob_createdById_createdAt_idx" ON "ImportJob"("createdById", "createdAt");

ALTER TABLE "ImportJob" ADD CONSTRAINT "ImportJob_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "Source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
