-- Where the database has pgvector, passage vectors are also kept in a pgvector column, and the
-- nearest passages are found in SQL (an HNSW index per embeddings model, made by the embeddings
-- worker once it knows the model's dimensions). Elsewhere the column is absent and each instance
-- searches an in-process index; so too when anything here is refused (a role that may not create
-- the extension, a provider's allow-list, the type outside the search path): the app logs which
-- search it uses at start. Idempotent: run it again by hand after installing pgvector on a server
-- that lacked it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    RETURN;
  END IF;
  CREATE EXTENSION IF NOT EXISTS vector;
  ALTER TABLE "PassageEmbedding" ADD COLUMN IF NOT EXISTS "embedding" vector;
  -- The rows still without a pgvector value (stored before the column existed, or re-embedded by
  -- a worker that did not write it), for the worker to fill.
  CREATE INDEX IF NOT EXISTS "PassageEmbedding_embedding_missing_idx" ON "PassageEmbedding" ("model") WHERE "embedding" IS NULL;
  -- A new vector written without its pgvector value (another setting, an older instance) must not
  -- leave the old value to be found: it is emptied, and filled again by the worker.
  CREATE OR REPLACE FUNCTION "PassageEmbedding_embedding_follows_vector"() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF NEW."vector" IS DISTINCT FROM OLD."vector" AND NEW."embedding" IS NOT DISTINCT FROM OLD."embedding" THEN
      NEW."embedding" := NULL;
    END IF;
    RETURN NEW;
  END
  $fn$;
  DROP TRIGGER IF EXISTS "PassageEmbedding_embedding_follows_vector" ON "PassageEmbedding";
  CREATE TRIGGER "PassageEmbedding_embedding_follows_vector" BEFORE UPDATE ON "PassageEmbedding"
    FOR EACH ROW EXECUTE FUNCTION "PassageEmbedding_embedding_follows_vector"();
EXCEPTION WHEN OTHERS THEN
  -- The block's work is undone as one: no extension half set up.
  RAISE NOTICE 'pgvector not set up (%): passages are searched in process', SQLERRM;
END $$;
