-- An article may be a translation of another (its original, in the same workspace): the help page
-- links an original and its translations by language. Deleting an original leaves its
-- translations as originals.
ALTER TABLE "Article" ADD COLUMN "translationOfId" TEXT;

CREATE INDEX "Article_translationOfId_idx" ON "Article"("translationOfId");

ALTER TABLE "Article" ADD CONSTRAINT "Article_translationOfId_fkey" FOREIGN KEY ("translationOfId") REFERENCES "Article"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The help centre's language filter: which languages a visible source's articles are set to, and
-- a language's newest articles, from the index alone (articles left to detection are not in it).
CREATE INDEX "Article_visible_language_idx" ON "Article" ("sourceId", "language", "updatedAt" DESC, "id") WHERE "published" AND "active" AND "language" IS NOT NULL;
