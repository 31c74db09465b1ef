-- How many of an import's created articles are drafts (its summary says how to publish them).
-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN "drafts" INTEGER NOT NULL DEFAULT 0;
