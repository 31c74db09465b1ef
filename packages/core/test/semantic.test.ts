// Semantic retrieval against a deterministic embeddings server over HTTP (support/fake-embeddings.ts):
// the worker embeds an article's passages when it is published, skips unchanged passages, embeds
// again what an edit changed, removes the passages of unpublished and deleted articles, re-embeds
// everything for a new model and retries failures later without touching the article; a query finds
// the nearest passage among the agent's visible articles only, and gives null when the endpoint
// fails or is too slow. Real database (PGlite, or PostgreSQL with DATABASE_URL).
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { DIMENSIONS, type FakeEmbeddings, startFakeEmbeddings } from "@parley/testing/fake-embeddings";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbedder } from "../src/knowledge/semantic/embedder.ts";
import { EmbeddingIndexer } from "../src/knowledge/semantic/indexer.ts";
import { createSemanticSearch, nearestPassages } from "../src/knowledge/semantic/nearest.ts";
import { PGVECTOR_MISSING } from "../src/knowledge/semantic/passage-search.ts";
import { vectorToBytes } from "../src/knowledge/semantic/passages.ts";
import { backfillVectorColumn, nearestInDatabase, pgvectorUsable } from "../src/knowledge/semantic/pgvector.ts";
import { embeddingsConfigFrom, type VectorSearchSetting } from "../src/knowledge/semantic/settings.ts";
import { embeddingsTask } from "../src/knowledge/semantic/task.ts";
import { unitVector } from "../src/knowledge/semantic/vector-index.ts";
import { configureLogging } from "../src/platform/logger.ts";
import { Scheduler } from "../src/platform/scheduler/scheduler.ts";

const API_KEY = "sk-embeddings-test";
const MODEL = "bow-1";
const AGENT = "sem-agent";

const PASSWORD = `Passwords keep your account safe.

## Reset a forgotten password

Open the sign-in page and choose Forgot password. We email a reset link that works for one hour.

## Change your password

Open Settings, then Security, and type the new password twice.`;

const REFUNDS = `## Refund of a duplicate charge

Charged twice by mistake? Write to billing and we always refund the wrong charge within five days.`;

let db: TestDatabase;
let fake: FakeEmbeddings;
let clock: Date;

beforeAll(async () => {
  configureLogging({ level: "silent" });
  db = await createTestDatabase();
  fake = await startFakeEmbeddings({ apiKey: API_KEY });
  await db.prisma.workspace.create({ data: { id: "sem-ws", name: "Semantic" } });
  await db.prisma.agent.create({ data: { id: AGENT, workspaceId: "sem-ws", name: "Semantic agent" } });
  await db.prisma.source.createMany({
    data: [
      { id: "sem-src", workspaceId: "sem-ws", name: "Help" },
      { id: "sem-other", workspaceId: "sem-ws", name: "Internal (no agent)" },
    ],
  });
  await db.prisma.agentSource.create({ data: { agentId: AGENT, sourceId: "sem-src" } });
});

afterAll(async () => {
  await fake.close();
  await db.close();
});

beforeEach(() => {
  clock = new Date("2026-11-26T10:00:00Z");
  fake.mode = { kind: "ok" };
  fake.requests.length = 0;
});

afterEach(async () => {
  await db.prisma.article.deleteMany({});
});

function indexer(model = MODEL, dimensions?: number, vectorSearch?: VectorSearchSetting) {
  return new EmbeddingIndexer({
    db,
    embedder: createEmbedder({ baseUrl: fake.baseUrl, apiKey: API_KEY, model, dimensions }),
    vectorSearch,
    now: () => clock,
    random: () => 0.5,
    retryDelaysMs: [10_000, 60_000],
  });
}

async function article(id: string, content: string, extra: { title?: string; published?: boolean; sourceId?: string } = {}) {
  await db.prisma.article.create({
    data: { id, sourceId: extra.sourceId ?? "sem-src", title: extra.title ?? id, content, published: extra.published ?? true },
  });
}

async function stored(model = MODEL) {
  const rows = await db.prisma.passageEmbedding.findMany({
    where: { model },
    select: { articleId: true, section: true },
    orderBy: [{ articleId: "asc" }, { section: "asc" }],
  });
  return rows.map((row) => `${row.articleId}#${row.section}`);
}

describe("the embeddings worker", () => {
  it("embeds each section of a published article with its title and heading, and nothing unpublished", async () => {
    await article("pw", PASSWORD, { title: "Passwords" });
    await article("draft", "A draft nobody sees.", { published: false });

    expect(await indexer().drain()).toEqual({ embedded: 1, removed: 0, failed: 0, passagesEmbedded: 3 });

    expect(await stored()).toEqual(["pw#0", "pw#1", "pw#2"]);
    expect(fake.inputs()).toEqual([
      "Passwords\nPasswords keep your account safe.",
      "Passwords\nReset a forgotten password\nOpen the sign-in page and choose Forgot password. We email a reset link that works for one hour.",
      "Passwords\nChange your password\nOpen Settings, then Security, and type the new password twice.",
    ]);
    expect(fake.requests[0]).toMatchObject({ model: MODEL, authorization: `Bearer ${API_KEY}` });
    const row = await db.prisma.passageEmbedding.findFirstOrThrow({ where: { articleId: "pw", section: 1 } });
    expect(row.vector.byteLength).toBe(64 * 4);
    expect(row.sourceId).toBe("sem-src");
  });

  it("sends nothing for unchanged passages, and only the changed section after an edit", async () => {
    await article("pw", PASSWORD, { title: "Passwords" });
    await indexer().drain();
    fake.requests.length = 0;

    expect(await indexer().drain()).toEqual({ embedded: 0, removed: 0, failed: 0, passagesEmbedded: 0 });
    expect(fake.requests).toEqual([]);

    await db.prisma.article.update({
      where: { id: "pw" },
      data: { content: PASSWORD.replace("type the new password twice", "type it twice") },
    });
    expect(await indexer().drain()).toMatchObject({ embedded: 1, passagesEmbedded: 1 });
    expect(fake.inputs()).toEqual(["Passwords\nChange your password\nOpen Settings, then Security, and type it twice."]);
    expect(await stored()).toEqual(["pw#0", "pw#1", "pw#2"]);

    // A section removed: its row goes, the others are reused where they moved.
    fake.requests.length = 0;
    await db.prisma.article.update({ where: { id: "pw" }, data: { content: PASSWORD.split("## Change")[0]! } });
    expect(await indexer().drain()).toMatchObject({ embedded: 1, passagesEmbedded: 0 });
    expect(await stored()).toEqual(["pw#0", "pw#1"]);
  });

  it("removes the passages of an article once it is unpublished, deactivated or deleted", async () => {
    await article("a", "Alpha text about invoices.");
    await article("b", "Beta text about invoices.");
    await article("c", "Gamma text about invoices.");
    await indexer().drain();
    expect(await stored()).toEqual(["a#0", "b#0", "c#0"]);

    await db.prisma.article.update({ where: { id: "a" }, data: { published: false } });
    await db.prisma.article.update({ where: { id: "b" }, data: { active: false } });
    await db.prisma.article.delete({ where: { id: "c" } });
    expect(await indexer().drain()).toMatchObject({ removed: 2 });
    expect(await stored()).toEqual([]);
    expect(await db.prisma.articleEmbedding.count()).toBe(0);

    // Published again: embedded again.
    await db.prisma.article.update({ where: { id: "a" }, data: { published: true } });
    await indexer().drain();
    expect(await stored()).toEqual(["a#0"]);
  });

  it("embeds every article again for a new model, then drops the old model's vectors", async () => {
    await article("pw", PASSWORD);
    await article("refunds", REFUNDS);
    await indexer("bow-1").drain();
    fake.requests.length = 0;

    expect(await indexer("bow-2").drain()).toEqual({ embedded: 2, removed: 0, failed: 0, passagesEmbedded: 4 });
    expect(new Set(fake.requests.map((request) => request.model))).toEqual(new Set(["bow-2"]));
    expect(await stored("bow-2")).toEqual(["pw#0", "pw#1", "pw#2", "refunds#0"]);
    expect(await stored("bow-1")).toEqual([]);
  });

  it("asks for shorter vectors with EMBEDDINGS_DIMENSIONS, and treats a new length as a new model", async () => {
    await article("refunds", REFUNDS);
    await indexer("bow-1").drain();
    fake.requests.length = 0;

    const config = embeddingsConfigFrom({ EMBEDDINGS_BASE_URL: fake.baseUrl, EMBEDDINGS_MODEL: "bow-1", EMBEDDINGS_DIMENSIONS: 16 });
    expect(config).toEqual({ baseUrl: fake.baseUrl, apiKey: undefined, model: "bow-1", dimensions: 16, vectorSearch: "auto" });
    expect(await indexer("bow-1", 16).drain()).toMatchObject({ embedded: 1, passagesEmbedded: 1 });
    expect(fake.requests).toEqual([expect.objectContaining({ model: "bow-1", dimensions: 16 })]);
    const row = await db.prisma.passageEmbedding.findFirstOrThrow({ where: { articleId: "refunds" } });
    expect(row).toMatchObject({ model: "bow-1@16", section: 0 });
    expect(row.vector.byteLength).toBe(16 * 4);
    expect(await stored("bow-1")).toEqual([]);
  });

  it("keeps the article and retries a failed embedding later, with a longer wait each time", async () => {
    await article("pw", PASSWORD);
    fake.mode = { kind: "error", status: 500 };
    const worker = indexer();

    expect(await worker.drain()).toMatchObject({ embedded: 0, failed: 1 });
    const failed = await db.prisma.articleEmbedding.findUniqueOrThrow({ where: { articleId_model: { articleId: "pw", model: MODEL } } });
    expect(failed.attempts).toBe(1);
    expect(failed.embeddedVersion).toBeNull();
    expect(failed.lastError).toContain("The fake endpoint is failing");
    expect(failed.nextAttemptAt.getTime() - clock.getTime()).toBe(10_000);
    expect(await db.prisma.article.findUniqueOrThrow({ where: { id: "pw" } })).toMatchObject({ published: true, content: PASSWORD });

    // Not due yet: nothing is sent.
    const sent = fake.requests.length;
    expect(await worker.drain()).toMatchObject({ failed: 0, embedded: 0 });
    expect(fake.requests.length).toBe(sent);

    clock = new Date(clock.getTime() + 10_000);
    expect(await worker.drain()).toMatchObject({ failed: 1 });
    const again = await db.prisma.articleEmbedding.findUniqueOrThrow({ where: { articleId_model: { articleId: "pw", model: MODEL } } });
    expect(again.nextAttemptAt.getTime() - clock.getTime()).toBe(60_000);

    fake.mode = { kind: "ok" };
    clock = new Date(clock.getTime() + 60_000);
    expect(await worker.drain()).toMatchObject({ embedded: 1 });
    const done = await db.prisma.articleEmbedding.findUniqueOrThrow({ where: { articleId_model: { articleId: "pw", model: MODEL } } });
    expect(done).toMatchObject({ attempts: 0, lastError: null });
    expect(await stored()).toEqual(["pw#0", "pw#1", "pw#2"]);
  });

  it("runs as a task of the scheduler: a published article is embedded without anyone asking", async () => {
    const loop = new Scheduler({ db }).add(embeddingsTask(indexer(), 20)).start();
    try {
      await article("refunds", REFUNDS);
      await expect.poll(() => stored(), { timeout: 10_000, interval: 50 }).toEqual(["refunds#0"]);
    } finally {
      await loop.stop(0);
    }
  });
});

describe("nearestPassages", () => {
  function semantic(options: { queryTimeoutMs?: number; syncIntervalMs?: number; vectorSearch?: VectorSearchSetting } = {}) {
    return createSemanticSearch({
      db,
      config: { baseUrl: fake.baseUrl, apiKey: API_KEY, model: MODEL },
      queryTimeoutMs: options.queryTimeoutMs,
      syncIntervalMs: options.syncIntervalMs ?? 0,
      vectorSearch: options.vectorSearch,
    });
  }

  it("is null when no embeddings endpoint is configured", async () => {
    expect(embeddingsConfigFrom({ EMBEDDINGS_BASE_URL: undefined, EMBEDDINGS_MODEL: MODEL })).toBeUndefined();
    expect(embeddingsConfigFrom({ EMBEDDINGS_BASE_URL: fake.baseUrl, EMBEDDINGS_MODEL: "" })).toBeUndefined();
    expect(await nearestPassages({ db }, AGENT, "forgot password", 3)).toBeNull();
  });

  // PGlite has pgvector; this machine's PostgreSQL does not, and there only the in-process index runs.
  it.each(["in-process", "pgvector"] as const)(
    "%s: returns the passage nearest in meaning among the agent's visible articles, best first",
    async (vectorSearch) => {
      if (vectorSearch === "pgvector" && !(await pgvectorUsable(db))) return;
      await article("pw", PASSWORD, { title: "Passwords" });
      await article("refunds", REFUNDS, { title: "Refunds" });
      // The same words in articles the agent may not show: another source, a draft.
      await article("internal", "Reset a forgotten password: sign-in page, Forgot password, email reset link.", { sourceId: "sem-other" });
      await indexer(MODEL, undefined, vectorSearch).drain();
      await article("draft", "Reset a forgotten password with the email reset link from the sign-in page.", { published: false });
      await db.prisma.articleEmbedding.create({ data: { articleId: "draft", model: MODEL } });
      await db.prisma.passageEmbedding.create({
        data: {
          articleId: "draft",
          model: MODEL,
          section: 0,
          sourceId: "sem-src",
          textHash: "x",
          vector: (await db.prisma.passageEmbedding.findFirstOrThrow({ where: { articleId: "internal" } })).vector,
        },
      });
      if (vectorSearch === "pgvector") expect(await backfillVectorColumn(db, MODEL)).toBe(1);

      const search = semantic({ vectorSearch });
      expect(await search.passages.kind()).toBe(vectorSearch);
      const question = "I forgot my password, can you email me a reset link?";
      const best = await nearestPassages({ db, semantic: search }, AGENT, question, 1);
      expect(best).toEqual([{ articleId: "pw", section: 1, score: expect.any(Number) }]);
      expect(best?.[0]?.score).toBeGreaterThan(0.5);
      expect(best?.[0]?.score).toBeLessThanOrEqual(1);
      // Asked for more than there are: every visible passage, best first, and no hidden one
      // (the internal and draft articles hold nearer copies of the answer).
      const all = await nearestPassages({ db, semantic: search }, AGENT, question, 10);
      expect(all?.map((hit) => `${hit.articleId}#${hit.section}`).sort()).toEqual(["pw#0", "pw#1", "pw#2", "refunds#0"]);
      expect(all?.[0]).toEqual(best?.[0]);
      const scores = all?.map((hit) => hit.score) ?? [];
      expect(scores).toEqual([...scores].sort((a, b) => b - a));

      const refund = await nearestPassages({ db, semantic: search }, AGENT, "my card was charged twice, refund please", 1);
      expect(refund).toEqual([{ articleId: "refunds", section: 0, score: expect.any(Number) }]);

      // Nothing once the source is deactivated (the help centre hides its articles).
      await db.prisma.source.update({ where: { id: "sem-src" }, data: { active: false } });
      try {
        expect(await nearestPassages({ db, semantic: search }, AGENT, "refund", 3)).toEqual([]);
      } finally {
        await db.prisma.source.update({ where: { id: "sem-src" }, data: { active: true } });
      }
    },
  );

  it("in-process: sees what another instance's worker writes and removes (the index syncs from the database)", async () => {
    await article("pw", PASSWORD);
    const search = semantic({ vectorSearch: "in-process" });
    await search.passages.sync();
    expect(search.passages.inProcess.index.size).toBe(0);

    await indexer().drain();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password in security settings", 1)).toEqual([
      { articleId: "pw", section: 2, score: expect.any(Number) },
    ]);
    expect(search.passages.inProcess.index.size).toBe(3);

    await db.prisma.article.update({ where: { id: "pw" }, data: { published: false } });
    await indexer().drain();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password", 1)).toEqual([]);
    expect(search.passages.inProcess.index.size).toBe(0);

    // Published again, then deleted: the delete cascades in the database, and the index follows.
    await db.prisma.article.update({ where: { id: "pw" }, data: { published: true } });
    await indexer().drain();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password", 1)).toHaveLength(1);
    expect(search.passages.inProcess.index.size).toBe(3);
    await db.prisma.article.delete({ where: { id: "pw" } });
    await search.passages.sync();
    expect(search.passages.inProcess.index.size).toBe(0);

    // A new instance loads what is stored at start.
    await article("refunds", REFUNDS);
    await indexer().drain();
    const restarted = semantic({ vectorSearch: "in-process" });
    await restarted.passages.sync();
    expect(restarted.passages.inProcess.index.size).toBe(1);
  });

  it("auto: pgvector on a PostgreSQL server that has it, the in-process index elsewhere; pgvector asked for without it fails the semantic half", async ({
    skip,
  }) => {
    const usable = await pgvectorUsable(db);
    expect(await semantic().passages.kind()).toBe(usable && db.mode === "server" ? "pgvector" : "in-process");
    expect(await semantic({ vectorSearch: "in-process" }).passages.kind()).toBe("in-process");
    if (usable) skip(); // This server has pgvector: nothing to refuse.
    await article("pw", PASSWORD);
    const search = semantic({ vectorSearch: "pgvector" });
    await expect(search.passages.kind()).rejects.toThrow(PGVECTOR_MISSING);
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password", 1)).toBeNull();
    await expect(indexer(MODEL, undefined, "pgvector").pass()).rejects.toThrow(PGVECTOR_MISSING);
  });

  it("pgvector: the database searches by the model's HNSW index; nothing is held in process or synced", async ({ skip }) => {
    if (!(await pgvectorUsable(db))) skip();
    await article("pw", PASSWORD);
    const pgvectorIndexer = () => indexer(MODEL, undefined, "pgvector");
    await pgvectorIndexer().drain();
    // A long sync interval: with pgvector no instance holds a copy that could lag behind.
    const search = semantic({ vectorSearch: "pgvector", syncIntervalMs: 3_600_000 });
    expect(await search.passages.count()).toBe(3);
    const indexes = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'PassageEmbedding_hnsw_%' AND indexdef LIKE $1`,
      [`%'${MODEL}'%`],
    );
    expect(indexes).toHaveLength(1);
    expect(indexes[0]!.indexdef).toContain(
      `USING hnsw (((embedding)::vector(${DIMENSIONS})) vector_cosine_ops) WHERE ((model = '${MODEL}'::text) AND (vector_dims(embedding) = ${DIMENSIONS}))`,
    );
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password in security settings", 1)).toEqual([
      { articleId: "pw", section: 2, score: expect.any(Number) },
    ]);
    // The exact in-process search's answer: the same similarities, best first, each the passage's
    // own (passages of equal similarity may come in either order).
    await article("refunds", REFUNDS);
    await pgvectorIndexer().drain();
    const exact = semantic({ vectorSearch: "in-process" });
    for (const question of ["forgot password email link", "refund a duplicate charge", "change the password in security settings"]) {
      const byDatabase = (await nearestPassages({ db, semantic: search }, AGENT, question, 3))!;
      const all = (await nearestPassages({ db, semantic: exact }, AGENT, question, 10))!;
      expect(byDatabase).toHaveLength(3);
      const similarity = new Map(all.map((hit) => [`${hit.articleId}#${hit.section}`, hit.score]));
      byDatabase.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(all[i]!.score, 5);
        expect(hit.score).toBeCloseTo(similarity.get(`${hit.articleId}#${hit.section}`)!, 5);
      });
    }
    await db.prisma.article.delete({ where: { id: "refunds" } });

    await db.prisma.article.update({ where: { id: "pw" }, data: { published: false } });
    await pgvectorIndexer().drain();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password", 1)).toEqual([]);
    expect(await search.passages.count()).toBe(0);
    expect(search.passages.inProcess.index.size).toBe(0);

    // Rows stored before pgvector was installed (no pgvector value) get one from the worker's next pass.
    await db.prisma.article.update({ where: { id: "pw" }, data: { published: true } });
    await pgvectorIndexer().drain();
    await db.execScript(`UPDATE "PassageEmbedding" SET "embedding" = NULL WHERE "section" = 2`);
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password in security settings", 3)).toHaveLength(2);
    await pgvectorIndexer().pass();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "change password in security settings", 1)).toEqual([
      { articleId: "pw", section: 2, score: expect.any(Number) },
    ]);
  });

  it("pgvector: a vector rewritten without its pgvector value (another setting, an older instance) is not found until the worker fills it", async ({
    skip,
  }) => {
    if (!(await pgvectorUsable(db))) skip();
    await article("pw", PASSWORD);
    await indexer(MODEL, undefined, "pgvector").drain();
    const search = semantic({ vectorSearch: "pgvector" });
    // An in-process worker re-embeds the edited section: the old pgvector value must not stay.
    await db.prisma.article.update({
      where: { id: "pw" },
      data: { content: PASSWORD.replace("type the new password twice", "enter a passphrase") },
    });
    await indexer(MODEL, undefined, "in-process").drain();
    const empty = await db.query<{ section: number }>(`SELECT "section" FROM "PassageEmbedding" WHERE "embedding" IS NULL`);
    expect(empty.map((row) => Number(row.section))).toEqual([2]);
    expect((await nearestPassages({ db, semantic: search }, AGENT, "passphrase", 3))?.map((hit) => hit.section).sort()).toEqual([0, 1]);
    await indexer(MODEL, undefined, "pgvector").pass();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "enter a passphrase in security settings", 1)).toEqual([
      { articleId: "pw", section: 2, score: expect.any(Number) },
    ]);
  });

  it("pgvector: finds every passage asked for when the index gives up early, and indexes long vectors as halfvec", async ({ skip }) => {
    if (!(await pgvectorUsable(db)) || db.mode !== "embedded") skip(); // A session-wide setting: one connection.
    const near = (dims: number, hot: number, noise = 0) =>
      unitVector(Array.from({ length: dims }, (_, i) => (i === hot ? 1 : 0) + (noise ? Math.sin(i * noise) * 0.05 : 0)));
    async function store(model: string, articleId: string, sourceId: string, vectors: Float32Array[]) {
      await db.prisma.passageEmbedding.createMany({
        data: vectors.map((vector, section) => ({
          articleId,
          model,
          section,
          sourceId,
          textHash: `h${section}`,
          vector: vectorToBytes(vector),
        })),
      });
      while ((await backfillVectorColumn(db, model)) > 0);
    }
    // 300 passages of another source crowd the query's neighbourhood; the agent's 3 lie further off.
    await article("pw", PASSWORD);
    await article("internal", "Internal notes.", { sourceId: "sem-other" });
    await store(
      "crowd-1",
      "internal",
      "sem-other",
      Array.from({ length: 300 }, (_, i) => near(32, 0, i + 1)),
    );
    await store("crowd-1", "pw", "sem-src", [near(32, 1), near(32, 2), near(32, 3)]);
    await db.execScript("SET hnsw.max_scan_tuples = 1");
    try {
      const found = await nearestInDatabase(db, "crowd-1", near(32, 0), 3, new Set(["sem-src"]));
      expect(found.map((hit) => `${hit.articleId}#${hit.section}`).sort()).toEqual(["pw#0", "pw#1", "pw#2"]);
    } finally {
      await db.execScript("RESET hnsw.max_scan_tuples");
    }

    // 3,000 dimensions: over vector's 2,000 for HNSW, so the index reads them as halfvec.
    await store("long-1", "pw", "sem-src", [near(3_000, 5), near(3_000, 2_500), near(3_000, 900)]);
    const [index] = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%long-1%'`);
    expect(index?.indexdef).toContain("USING hnsw (((embedding)::halfvec(3000)) halfvec_cosine_ops)");
    const nearest = await nearestInDatabase(db, "long-1", near(3_000, 2_500), 2, new Set(["sem-src"]));
    expect(nearest.map((hit) => hit.section)).toEqual([1, expect.any(Number)]);
    expect(nearest[0]!.score).toBeCloseTo(1, 2);
  });

  it("gives null, soon, when the endpoint fails or answers after the timeout", async () => {
    await article("pw", PASSWORD);
    await indexer().drain();
    const search = semantic({ queryTimeoutMs: 300 });

    fake.mode = { kind: "error", status: 503 };
    expect(await nearestPassages({ db, semantic: search }, AGENT, "forgot password", 3)).toBeNull();

    fake.mode = { kind: "slow", delayMs: 2_000 };
    const started = performance.now();
    expect(await nearestPassages({ db, semantic: search }, AGENT, "forgot password", 3)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_500);

    fake.mode = { kind: "ok" };
    expect(await nearestPassages({ db, semantic: search }, AGENT, "forgot password", 1)).toHaveLength(1);
  });
});
