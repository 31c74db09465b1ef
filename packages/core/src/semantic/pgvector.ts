// Passage vectors searched by the database itself, where it has pgvector (the migration then added
// PassageEmbedding."embedding"): every instance reads the same HNSW index, nothing is held in
// process and nothing needs syncing. One partial index per model, made once the model's dimension
// count is known (the column's type has none, as models differ); a query names the model and its
// dimensions as literals so that the planner can match the partial index.
import { createHash } from "node:crypto";
import { type Database, Prisma } from "@parley/db";
import { EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS } from "../limits.ts";
import { vectorFromBytes } from "./passages.ts";
import type { Neighbour } from "./vector-index.ts";

const searchesVectors = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether this database keeps and searches passage vectors with pgvector: the migration added the
 * column, and the extension is 0.8 or later (its iterative index scans; before them a filtered
 * HNSW scan can return fewer passages than asked for).
 */
export function pgvectorUsable(db: Database): Promise<boolean> {
  let known = searchesVectors.get(db);
  if (!known) {
    known = db
      .query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                  WHERE table_name = 'PassageEmbedding' AND column_name = 'embedding' AND udt_name = 'vector')
            AND coalesce((SELECT string_to_array(extversion, '.')::int[] >= '{0,8}' FROM pg_extension WHERE extname = 'vector'), false)
            AS "found"`,
      )
      .then(([row]) => row?.found === true);
    known.catch(() => searchesVectors.delete(db));
    searchesVectors.set(db, known);
  }
  return known;
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.from(vector).join(",")}]`;
}

function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function hnswIndexName(model: string): string {
  return `PassageEmbedding_hnsw_${createHash("sha256").update(model).digest("hex").slice(0, 16)}`;
}

const madeIndexes = new WeakMap<Database, Set<string>>();

/** Makes the model's HNSW index (cosine distance) unless this process already did. */
export async function ensureModelIndex(db: Database, model: string, dimensions: number): Promise<void> {
  const made = madeIndexes.get(db) ?? new Set<string>();
  madeIndexes.set(db, made);
  if (made.has(model)) return;
  try {
    await db.execScript(
      `CREATE INDEX IF NOT EXISTS "${hnswIndexName(model)}" ON "PassageEmbedding"
         USING hnsw (("embedding"::vector(${dimensions})) vector_cosine_ops) WHERE "model" = ${quoted(model)}`,
    );
  } catch (error) {
    // Another instance's worker made it at the same moment (IF NOT EXISTS does not cover a race).
    if (!(await indexExists(db, hnswIndexName(model)))) throw error;
  }
  made.add(model);
}

async function indexExists(db: Database, name: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM pg_indexes WHERE indexname = $1`, [name]);
  return rows.length > 0;
}

/**
 * Gives a pgvector value to up to `limit` rows that have none: rows written before pgvector was
 * installed and the column added (README: Semantic retrieval). Returns how many.
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
    await db.query(`UPDATE "PassageEmbedding" SET "embedding" = $4::vector WHERE "articleId" = $1 AND "model" = $2 AND "section" = $3`, [
      row.articleId,
      model,
      Number(row.section),
      vectorLiteral(vector),
    ]);
  }
  return rows.length;
}

/** The HNSW search's candidate list: pgvector's advice is at least the rows asked for; twice that recalls more. */
function efSearchFor(k: number): number {
  return Math.min(1_000, Math.max(100, 2 * Math.floor(k)));
}

/**
 * The `k` passages of `sources` nearest to `query` (unit length), best first, by the model's HNSW
 * index. Iterative scanning goes on past the index's first candidates until `k` pass the filter.
 */
export async function nearestInDatabase(
  db: Database,
  model: string,
  query: Float32Array,
  k: number,
  sources: ReadonlySet<string>,
): Promise<Neighbour[]> {
  if (k <= 0 || sources.size === 0 || query.length === 0) return [];
  const embedding = Prisma.raw(`"embedding"::vector(${query.length})`);
  const target = Prisma.sql`${vectorLiteral(query)}::vector(${Prisma.raw(String(query.length))})`;
  // A transaction of its own, so that the settings reach no other statement. Without sorting and
  // sequential scans the planner has one plan left, the HNSW index: otherwise, pricing the rows by
  // their main pages (not the out-of-line vectors) or by stale statistics, it reads and sorts every
  // vector of the model (30 ms at 7,000 passages on PGlite, against 2 ms).
  const rows = await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('enable_seqscan', 'off', true),
      set_config('enable_sort', 'off', true), set_config('hnsw.ef_search', ${String(efSearchFor(k))}, true)`;
    return tx.$queryRaw<Array<{ articleId: string; section: number; distance: number }>>`
      SELECT "articleId", "section", (${embedding} <=> ${target})::float8 AS "distance"
      FROM "PassageEmbedding"
      WHERE "model" = ${Prisma.raw(quoted(model))} AND "sourceId" IN (${Prisma.join([...sources])}) AND "embedding" IS NOT NULL
      ORDER BY ${embedding} <=> ${target}
      LIMIT ${Prisma.raw(String(Math.floor(k)))}`;
  });
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
