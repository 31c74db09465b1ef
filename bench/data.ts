// The bench database: a throwaway PostgreSQL database, migrated with Parley's own runner, holding
// one bench agent (knowledge engine, HTTP API key, no monthly limits), several linked sources, some
// unlinked ones, and articles loaded in bulk with multi-row INSERTs (unnest of column arrays).
import { createHash } from "node:crypto";
import path from "node:path";
import { type Database, migrate, openDatabase } from "@parley/db";
import { withDatabase } from "@parley/testing/database";
import { evalAgent, loadCollections, loadCorpus, loadArticles as loadEvalArticles } from "@parley/testing/eval-corpus";
import pg from "pg";
import { createRandom, generateArticle, type Random, TOPICS } from "./corpus.ts";

export interface BenchDatabase {
  name: string;
  url: string;
  db: Database;
  /** Closes the connections and drops the database; safe to call twice. */
  drop(): Promise<void>;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(serverUrl: string, name = `parley_bench_${process.pid}`): Promise<BenchDatabase> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl, name);
  let db: Database | undefined;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await db?.close().catch(() => {});
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  try {
    db = await openDatabase({ url, poolSize: 4 });
    await migrate(db);
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url, db, drop };
}

export interface Fixture {
  agentId: string;
  /** The bench agent's HTTP API key (only its SHA-256 is stored). */
  apiKey: string;
  /** Sources linked to the bench agent, in creation order. */
  linkedSourceIds: string[];
}

interface SourceSpec {
  id: string;
  name: string;
  linked: boolean;
  active: boolean;
  /** Share of all articles. */
  weight: number;
  topics: number[];
}

// Eight linked sources of uneven size and three unlinked ones (one of them inactive), so the
// visibility filter and the per-source reads have real work to do.
const SOURCES: SourceSpec[] = [
  { id: "bench_src_getting_started", name: "Getting started", linked: true, active: true, weight: 0.06, topics: [0, 10, 13] },
  { id: "bench_src_account", name: "Account & security", linked: true, active: true, weight: 0.14, topics: [0, 5, 12] },
  { id: "bench_src_billing", name: "Billing & payments", linked: true, active: true, weight: 0.16, topics: [1, 2, 4] },
  { id: "bench_src_shipping", name: "Orders & shipping", linked: true, active: true, weight: 0.14, topics: [3, 11, 2] },
  { id: "bench_src_integrations", name: "Integrations & API", linked: true, active: true, weight: 0.1, topics: [6, 7] },
  { id: "bench_src_reports", name: "Reports & analytics", linked: true, active: true, weight: 0.08, topics: [8, 9] },
  { id: "bench_src_mobile", name: "Mobile apps", linked: true, active: true, weight: 0.05, topics: [10, 7, 13] },
  { id: "bench_src_troubleshooting", name: "Troubleshooting", linked: true, active: true, weight: 0.07, topics: [13, 5, 6] },
  { id: "bench_src_internal", name: "Internal runbooks", linked: false, active: true, weight: 0.12, topics: [13, 9, 5] },
  { id: "bench_src_partner", name: "Partner portal", linked: false, active: true, weight: 0.05, topics: [6, 1, 8] },
  { id: "bench_src_archive", name: "Archive 2023", linked: false, active: false, weight: 0.03, topics: [1, 3, 4] },
];

const AGENT_ID = "bench_agent";
const SEED = 20261122;

/** A fixed, clearly fake key: the bench database is private and dropped at the end. */
export function benchKey(name: string): { apiKey: string; keyHash: string } {
  const apiKey = `pk_bench_${createHash("sha256").update(`${name}-${SEED}`).digest("base64url").slice(0, 32)}`;
  return { apiKey, keyHash: createHash("sha256").update(apiKey).digest("hex") };
}

export async function createFixture(db: Database): Promise<Fixture> {
  const { apiKey, keyHash } = benchKey("parley-bench");
  await db.query(`INSERT INTO "Workspace" (id, name) VALUES ('bench_workspace', 'Bench workspace')`);
  await db.query(
    `INSERT INTO "Agent" (id, "workspaceId", name, active, "httpApiEnabled", "keyHash", "keyLast4", "keyCreatedAt", engine, "updatedAt")
     VALUES ($1, 'bench_workspace', 'Bench agent', true, true, $2, $3, now(), 'knowledge', now())`,
    [AGENT_ID, keyHash, apiKey.slice(-4)],
  );
  for (const source of SOURCES) {
    await db.query(`INSERT INTO "Source" (id, "workspaceId", name, active, "updatedAt") VALUES ($1, 'bench_workspace', $2, $3, now())`, [
      source.id,
      source.name,
      source.active,
    ]);
    if (source.linked) await db.query(`INSERT INTO "AgentSource" ("agentId", "sourceId") VALUES ($1, $2)`, [AGENT_ID, source.id]);
  }
  return { agentId: AGENT_ID, apiKey, linkedSourceIds: SOURCES.filter((s) => s.linked).map((s) => s.id) };
}

/** The agent of the eval-sized scenario: its id and HTTP API key. */
export interface EvalFixture {
  agentId: string;
  apiKey: string;
}

/**
 * The answer-quality evaluation's corpus (eval/corpora/kestrel, 170 articles in five languages) loaded as
 * `npm run eval` loads it: its own workspace, one source per collection, every article published,
 * and the eval's knowledge agent linked to those sources only, here with an HTTP API key. It sees
 * none of the generated articles, and the bench agent none of these.
 */
export async function createEvalFixture(db: Database): Promise<EvalFixture> {
  const corpusDir = path.join(import.meta.dirname, "..", "eval", "corpora", "kestrel", "corpus");
  await loadCorpus(db, loadCollections(corpusDir), loadEvalArticles(corpusDir));
  const agentId = evalAgent("knowledge").id;
  const { apiKey, keyHash } = benchKey("parley-bench-eval");
  await db.query(`UPDATE "Agent" SET "keyHash" = $2, "keyLast4" = $3, "keyCreatedAt" = now() WHERE id = $1`, [
    agentId,
    keyHash,
    apiKey.slice(-4),
  ]);
  await db.query(`ANALYZE`);
  return { agentId, apiKey };
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A cuid-shaped id ("c" + 24 base-36 characters), like the ones Prisma generates. */
function cuidLike(random: Random): string {
  let id = "c";
  for (let i = 0; i < 24; i += 1) id += ID_ALPHABET[Math.floor(random() * ID_ALPHABET.length)];
  return id;
}

function pickSource(random: Random): SourceSpec {
  let roll = random();
  for (const source of SOURCES) {
    roll -= source.weight;
    if (roll < 0) return source;
  }
  return SOURCES[SOURCES.length - 1]!;
}

const BATCH_SIZE = 1_000;
const DAY_MS = 86_400_000;
// Timestamps spread over two years before a fixed date, so runs are identical.
const NEWEST = Date.UTC(2026, 10, 1);

interface ArticleBatch {
  id: string[];
  sourceId: string[];
  title: string[];
  content: string[];
  published: boolean[];
  active: boolean[];
  createdAt: string[];
  updatedAt: string[];
  publishedAt: (string | null)[];
}

/** Articles number `from` (inclusive) to `to` (exclusive); article n is the same in every run. */
function generateBatch(from: number, to: number): ArticleBatch {
  const batch: ArticleBatch = {
    id: [],
    sourceId: [],
    title: [],
    content: [],
    published: [],
    active: [],
    createdAt: [],
    updatedAt: [],
    publishedAt: [],
  };
  for (let n = from; n < to; n += 1) {
    const random = createRandom(SEED + n * 7919);
    const source = pickSource(random);
    const topic = random() < 0.8 ? source.topics[Math.floor(random() * source.topics.length)]! : Math.floor(random() * TOPICS.length);
    const article = generateArticle(random, topic);
    const created = NEWEST - Math.floor(random() * 730 * DAY_MS);
    // Updated up to 120 days after creation, never after NEWEST (no pile of identical times).
    const updated = created + Math.floor(random() * Math.min(120 * DAY_MS, NEWEST - created));
    // About 82% published and 86% active: about 70% of all articles are visible.
    const published = random() < 0.82;
    batch.id.push(cuidLike(random));
    batch.sourceId.push(source.id);
    batch.title.push(article.title);
    batch.content.push(article.content);
    batch.published.push(published);
    batch.active.push(random() < 0.86);
    batch.createdAt.push(new Date(created).toISOString());
    batch.updatedAt.push(new Date(updated).toISOString());
    batch.publishedAt.push(published ? new Date(updated).toISOString() : null);
  }
  return batch;
}

// The generated corpus is English: its language is stored as a save through the panel stores
// it, so the app's worker has no articles to detect while it is measured.
const INSERT_BATCH = `INSERT INTO "Article" (id, "sourceId", title, content, published, active, "createdAt", "updatedAt", "publishedAt", "detectedLanguage")
  SELECT *, 'en' FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::boolean[], $7::timestamp[], $8::timestamp[], $9::timestamp[])`;

interface IndexDefinition {
  name: string;
  definition: string;
}

/** The secondary indexes of "Article" as the migrations created them (everything but the key). */
async function articleIndexes(db: Database): Promise<IndexDefinition[]> {
  return db.query<IndexDefinition>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = 'Article' AND indexname <> 'Article_pkey'`,
  );
}

/**
 * Adds articles until there are `target` of them. A load larger than what is already there drops
 * the secondary indexes first and rebuilds them from their own definitions afterwards (much faster
 * than maintaining GIN trigram indexes row by row); the result is the same set of indexes.
 * Ends with VACUUM ANALYZE, as autovacuum would have done on a live database.
 */
export async function loadArticles(db: Database, current: number, target: number, log: (line: string) => void): Promise<void> {
  if (target <= current) return;
  const rebuild = target - current >= Math.max(current, 5_000);
  const indexes = rebuild ? await articleIndexes(db) : [];
  for (const index of indexes) await db.query(`DROP INDEX "${index.name}"`);
  const started = performance.now();
  for (let from = current; from < target; from += BATCH_SIZE) {
    const batch = generateBatch(from, Math.min(target, from + BATCH_SIZE));
    await db.query(INSERT_BATCH, [
      batch.id,
      batch.sourceId,
      batch.title,
      batch.content,
      batch.published,
      batch.active,
      batch.createdAt,
      batch.updatedAt,
      batch.publishedAt,
    ]);
  }
  log(`inserted ${target - current} articles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (indexes.length > 0) {
    const indexStarted = performance.now();
    await db.withSession(async (session) => {
      await session.query(`SET maintenance_work_mem = '512MB'`);
      for (const index of indexes) await session.query(index.definition);
    });
    log(`rebuilt ${indexes.length} indexes in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);
  }
  await db.query(`VACUUM ANALYZE "Article"`);
  await db.query(`ANALYZE`);
}

/** Visible articles of the bench agent to read, spread over sources; stable for a given corpus. */
export async function readableArticleIds(db: Database, agentId: string, count: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT a.id FROM "Article" a
     JOIN "AgentSource" l ON l."sourceId" = a."sourceId" AND l."agentId" = $1
     JOIN "Source" s ON s.id = a."sourceId" AND s.active
     WHERE a.published AND a.active
     ORDER BY md5(a.id) LIMIT $2`,
    [agentId, count],
  );
  return rows.map((row) => row.id);
}

/** Row counts for the log: all articles and those the bench agent can show. */
export async function articleCounts(db: Database, agentId: string): Promise<{ total: number; visible: number }> {
  const [row] = await db.query<{ total: number; visible: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE a.published AND a.active AND s.active
              AND EXISTS (SELECT 1 FROM "AgentSource" l WHERE l."sourceId" = a."sourceId" AND l."agentId" = $1))::int AS visible
     FROM "Article" a JOIN "Source" s ON s.id = a."sourceId"`,
    [agentId],
  );
  return row ?? { total: 0, visible: 0 };
}
