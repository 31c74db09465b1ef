-- The language detected from an article's title and content, written with every change of its
-- text (and filled in by the worker for articles saved before): an article left to detection
-- is then in its language's help lists and alternates without reading its text on each request.
ALTER TABLE "Article" ADD COLUMN "detectedLanguage" TEXT;

-- The help centre's language filter reads the article's language as set, else as detected.
DROP INDEX "Article_visible_language_idx";
CREATE INDEX "Article_visible_language_idx" ON "Article" ("sourceId", (coalesce("language", "detectedLanguage")), "updatedAt" DESC, "id")
  WHERE "published" AND "active" AND coalesce("language", "detectedLanguage") IS NOT NULL;

-- The worker's backfill: the articles whose language was never detected.
CREATE INDEX "Article_language_undetected_idx" ON "Article" ("id") WHERE "detectedLanguage" IS NULL;
