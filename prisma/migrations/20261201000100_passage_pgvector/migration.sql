-- Where the database has pgvector, passage vectors are also kept in a pgvector column, and the
-- nearest passages are found in SQL (an HNSW index per embeddings model, made by the embeddings
-- worker once it knows the model's dimensions). Elsewhere the column is absent and each instance
-- searches an in-process index. A role that may not create the extension leaves the column absent.
-- Idempotent: run it again by hand after installing pgvector on a server that lacked it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pgvector is available but this role may not create it: passages are searched in process';
      RETURN;
    END;
    ALTER TABLE "PassageEmbedding" ADD COLUMN IF NOT EXISTS "embedding" vector;
    -- The rows still without a pgvector value (stored before the column existed), for the worker.
    CREATE INDEX IF NOT EXISTS "PassageEmbedding_embedding_missing_idx" ON "PassageEmbedding" ("model") WHERE "embedding" IS NULL;
  END IF;
END $$;
