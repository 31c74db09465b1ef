-- Readable article addresses: a slug per article, unique within its source. Existing articles get
-- one from their title (accents dropped, anything else a hyphen); a repeated one gets -2, -3 ...
-- and a slug still taken after that gets the article's id. Rows written without a slug (raw SQL,
-- fixtures) get a random one; the app always writes one.
ALTER TABLE "Article" ADD COLUMN "slug" TEXT NOT NULL DEFAULT gen_random_uuid()::text;

WITH base AS (
  SELECT "id", "sourceId", "createdAt",
         COALESCE(NULLIF(left(trim(BOTH '-' FROM regexp_replace(parley_search_text("title"), '[^a-z0-9]+', '-', 'g')), 100), ''), 'article') AS "slug"
  FROM "Article"
), numbered AS (
  SELECT "id", "slug", row_number() OVER (PARTITION BY "sourceId", "slug" ORDER BY "createdAt", "id") AS "n" FROM base
)
UPDATE "Article" a
SET "slug" = CASE WHEN numbered."n" = 1 THEN numbered."slug" ELSE numbered."slug" || '-' || numbered."n" END
FROM numbered
WHERE numbered."id" = a."id";

UPDATE "Article" a
SET "slug" = left(a."slug", 80) || '-' || lower(regexp_replace(a."id", '[^A-Za-z0-9]+', '', 'g'))
WHERE EXISTS (SELECT 1 FROM "Article" b WHERE b."sourceId" = a."sourceId" AND b."slug" = a."slug" AND b."id" < a."id");

CREATE UNIQUE INDEX "Article_sourceId_slug_key" ON "Article"("sourceId", "slug");
