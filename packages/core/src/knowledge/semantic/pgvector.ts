// Passage vectors searched by the database itself, where it has pgvector (the migration then added
// PassageEmbedding."embedding"): every instance reads the same HNSW index, nothing is held in
// process and nothing needs syncing. One partial index per model and dimension count, made once
// they are known (the column's type has no dimensions, as models differ); a query names both as
// literals so that the planner can match the partial index. HNSW indexes `vector` up to 2,000
// dimensions and `halfvec` (half precision) up to 4,000; longer vectors are searched exactly.
import { createHash } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { describeError, logger } from "../../platform/logger.ts";
import { EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS } from "../limits.ts";
import { vectorFromBytes } from "./passages.ts";
import type { Neighbour } from "./vector-index.ts";

const usable = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether this database can keep and search passage vectors with pgvector: the migration added the
 * column, and the extension is 0.8 or later (its iterative index scans; before them a filtered
 * HNSW scan stops at its first candidates).
 */
export function pgvectorUsable(db: Database): Promise<boolean> {
  let known = usable.get(db);
  if (!known) {
    known = db
      .query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                  WHERE table_schema = current_schema() AND table_name = 'PassageEmbedding'
                    AND column_name = 'embedding' AND udt_name = 'vector')
            AND coalesce((SELECT string_to_array(extversion, '.')::int[] >= '{0,8}' FROM pg_extension WHERE extname = 'vector'), false)
            AS "found"`,
      )
      .then(([row]) => row?.found === true);
    known.catch(() => usable.delete(db));
    usable.set(db, known);
  }
  return known;
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.from(vector).join(",")}]`;
}

/** A string literal whatever standard_conforming_strings says (E'' reads backslashes as escapes). */
function literal(text: string): string {
  return `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** How the column is read for a model of `dimensions`: the expression its index covers, and the operator class. */
function typed(dimensions: number): { type: string; ops: string; indexed: boolean } {
  const n = Math.floor(dimensions);
  if (n <= 2_000) return { type: `vector(${n})`, ops: "vector_cosine_ops", indexed: true };
  if (n <= 4_000) return { type: `halfvec(${n})`, ops: "halfvec_cosine_ops", indexed: true };
  return { type: `vector(${n})`, ops: "vector_cosine_ops", indexed: false };
}

/** The rows of one model and dimension count (the index's predicate, repeated by every query). */
function modelRows(model: string, dimensions: number): string {
  return `"model" = ${literal(model)} AND vector_dims("embedding") = ${Math.floor(dimensions)}`;
}

function hnswIndexName(model: string, dimensions: number): string {
  return `PassageEmbedding_hnsw_${createHash("sha256").update(`${model}\u0000${dimensions}`).digest("hex").slice(0, 16)}`;
}

const madeIndexes = new WeakMap<Database, Set<string>>();

/**
 * Makes the HNSW index (cosine distance) of a model's vectors unless it exists. A refusal (a role
 * that does not own the table) is logged once and the model is searched without it, exactly.
 */
export async function ensureModelIndex(db: Database, model: string, dimensions: number): Promise<void> {
  const name = hnswIndexName(model, dimensions);
  const made = madeIndexes.get(db) ?? new Set<string>();
  madeIndexes.set(db, made);
  const { type, ops, indexed } = typed(dimensions);
  if (made.has(name) || !indexed) return;
  // Looked up first: CREATE INDEX IF NOT EXISTS would wait for the table's lock even when it exists.
  if (!(await indexExists(db, name))) {
    try {
      await db.execScript(
        `CREATE INDEX IF NOT EXISTS "${name}" ON "PassageEmbedding" USING hnsw (("embedding"::${type}) ${ops}) WHERE ${modelRows(model, dimensions)}`,
      );
    } catch (error) {
      // Another instance's worker may have made it at the same moment.
      if (!(await indexExists(db, name)))
        logger.warn("the HNSW index of the passage vectors could not be made; they are searched without it", {
          model,
          dimensions,
          error: describeError(error),
        });
    }
  }
  made.add(name);
}

async function indexExists(db: Database, name: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM pg_indexes WHERE indexname = $1`, [name]);
  return rows.length > 0;
}

/**
 * Gives a pgvector value to up to `limit` rows that have none: rows written before pgvector was
 * installed, or by an instance that did not write it. Returns how many it read.
 */
export async function backfillVectorColumn(db: Database, model: string, limit = EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS): Promise<number> {
  const rows = await db.query<{ articleId: string; section: number; vector: string }>(
    `SELECT "articleId", "section", encode("vector", 'base64') AS "vector" FROM "PassageEmbedding"
     WHERE "model" = $1 AND "embedding" IS NULL LIMIT ${Math.max(1, Math.floor(limit))}`,
    [model],
  );
  for (const row of rows) {
    const vector = vectorFromBytes(Buffer.from(row.vector, "base64"));
    await ensureModelIndex(db, model, vector.length);
    // Only if the row still holds the vector read: a worker may have written a newer one since.
    await db.query(
      `UPDATE "PassageEmbedding" SET "embedding" = $4::vector
       WHERE "articleId" = $1 AND "model" = $2 AND "section" = $3 AND "embedding" IS NULL AND "vector" = decode($5, 'base64')`,
      [row.articleId, model, Number(row.section), vectorLiteral(vector), row.vector],
    );
  }
  return rows.length;
}

/** The HNSW search's candidate list: pgvector's advice is at least the rows asked for; twice that recalls more. */
function efSearchFor(k: number): number {
  return Math.min(1_000, Math.max(100, 2 * Math.floor(k)));
}

/**
 * The `k` passages of `sources` nearest to `query` (unit length), best first. The model's HNSW
 * index answers first, with iterative scanning past the candidates that other sources' passages
 * take; it gives up after a bounded number of rows (pgvector's hnsw.max_scan_tuples), so when it
 * returns fewer than `k` the same query runs again without the index, exactly.
 */
export async function nearestInDatabase(
  db: Database,
  model: string,
  query: Float32Array,
  k: number,
  sources: ReadonlySet<string>,
): Promise<Neighbour[]> {
  if (k <= 0 || sources.size === 0 || query.length === 0) return [];
  const limit = Math.floor(k);
  const { type } = typed(query.length);
  const distance = Prisma.sql`${Prisma.raw(`"embedding"::${type}`)} <=> ${vectorLiteral(query)}::${Prisma.raw(type)}`;
  const statement = Prisma.sql`
    SELECT "articleId", "section", (${distance})::float8 AS "distance"
    FROM "PassageEmbedding"
    WHERE ${Prisma.raw(modelRows(model, query.length))} AND "sourceId" IN (${Prisma.join([...sources])})
    ORDER BY ${distance}
    LIMIT ${Prisma.raw(String(limit))}`;
  // A transaction of its own, so that the settings reach no other statement. Without sorting and
  // sequential scans the planner has one plan left, the HNSW index: otherwise, pricing the rows by
  // their main pages (not the out-of-line vectors) or by stale statistics, it reads and sorts every
  // vector of the model (30 ms at 7,000 passages on PGlite, against 2 ms).
  let rows = await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('enable_seqscan', 'off', true),
      set_config('enable_sort', 'off', true), set_config('hnsw.ef_search', ${String(efSearchFor(limit))}, true)`;
    return tx.$queryRaw<Array<{ articleId: string; section: number; distance: number }>>(statement);
  });
  if (rows.length < limit) {
    rows = await db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT set_config('enable_indexscan', 'off', true)`;
      return tx.$queryRaw<Array<{ articleId: string; section: number; distance: number }>>(statement);
    });
  }
  return rows.map((row) => ({ articleId: row.articleId, section: Number(row.section), score: 1 - Number(row.distance) }));
}

/** Passages of the model with a pgvector value. */
export async function countInDatabase(db: Database, model: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS "count" FROM "PassageEmbedding" WHERE "model" = $1 AND "embedding" IS NOT NULL`,
    [model],
  );
  return Number(row?.count ?? 0);
}
