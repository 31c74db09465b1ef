-- Help search that stays fast as the help centre grows (issue 6).
--
-- 1. The search text is stored, not recomputed: a full-text document and the folded title and
--    content as generated columns. Checking a candidate row no longer runs unaccent() and
--    to_tsvector() over its whole content (a trigram index only proposes candidates; each is
--    re-checked against the text).
-- 2. The GIN indexes lead with "updatedAt" (btree_gin), over visible articles only. A recent-first
--    search asks for the matches updated since a point in time; the index intersects the time
--    range with the word or trigram postings, so only the newest matches are read from the table
--    instead of every article that contains a common word (see packages/core/src/help/search.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;

ALTER TABLE "Article"
  ADD COLUMN "searchDocument" tsvector GENERATED ALWAYS AS (parley_article_document("title", "content")) STORED,
  ADD COLUMN "searchTitle" TEXT GENERATED ALWAYS AS (parley_search_text("title")) STORED,
  ADD COLUMN "searchContent" TEXT GENERATED ALWAYS AS (parley_search_text("content")) STORED;

DROP INDEX "Article_document_idx";
DROP INDEX "Article_title_trgm_idx";
DROP INDEX "Article_content_trgm_idx";

CREATE INDEX "Article_visible_document_idx" ON "Article" USING gin ("updatedAt", "searchDocument") WHERE "published" AND "active";
CREATE INDEX "Article_visible_title_trgm_idx" ON "Article" USING gin ("updatedAt", "searchTitle" gin_trgm_ops) WHERE "published" AND "active";
CREATE INDEX "Article_visible_content_trgm_idx" ON "Article" USING gin ("updatedAt", "searchContent" gin_trgm_ops) WHERE "published" AND "active";
