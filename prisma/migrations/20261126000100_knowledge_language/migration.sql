-- Articles carry their language (null: detected from the text when indexed); agents carry the
-- synonym groups their admins add to the knowledge search (one group per line).
ALTER TABLE "Article" ADD COLUMN "language" TEXT;
ALTER TABLE "Agent" ADD COLUMN "knowledgeSynonyms" TEXT NOT NULL DEFAULT '';
