// The embeddings worker: keeps every published, active article's passages embedded by the
// configured model. It runs as a task of the scheduler (task.ts; never on a request), so saving an
// article does no network call and cannot fail because the endpoint does.
//
// Work is found, not queued: an article needs embedding when it is published and active and its
// state row for the model is missing or records another version (updatedAt) than the article's;
// an unpublished, inactive or deleted article's passages are removed. A new model therefore has no
// state rows and every article is embedded again (the re-index), while the old model's vectors are
// replaced article by article. Instances share the work like webhook deliveries: a state row is
// claimed with FOR UPDATE SKIP LOCKED and a lease. A failed article waits, longer each time, and
// is tried again; the other articles go on.
import { randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { describeError, logger } from "../../platform/logger.ts";
import {
  EMBEDDINGS_ARTICLES_PER_PASS,
  EMBEDDINGS_DELETIONS_KEPT_MS,
  EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS,
  EMBEDDINGS_RESCAN_MS,
  EMBEDDINGS_RETRY_DELAYS_MS,
  EMBEDDINGS_WORKER_TIMEOUT_MS,
} from "../limits.ts";
import type { Embedder } from "./embedder.ts";
import { resolveVectorSearch } from "./passage-search.ts";
import { type PassageText, passagesOf, vectorFromBytes, vectorToBytes } from "./passages.ts";
import { backfillVectorColumn, ensureModelIndex, vectorLiteral } from "./pgvector.ts";
import type { VectorSearchSetting } from "./settings.ts";

export interface EmbeddingIndexerOptions {
  db: Database;
  embedder: Embedder;
  now?: () => Date;
  random?: () => number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Articles claimed per pass. */
  batch?: number;
  /** Where the vectors are searched (the search's own setting): with pgvector they are written to its column too. */
  vectorSearch?: VectorSearchSetting;
  /** Without any article change, look for due work (retries of other instances) this often. */
  rescanMs?: number;
  name?: string;
}

export interface PassOutcome {
  embedded: number;
  removed: number;
  failed: number;
  /** Passages sent to the endpoint. */
  passagesEmbedded: number;
}

interface Claimed {
  articleId: string;
  attempts: number;
}

const ERROR_MAX_CHARS = 500;

export class EmbeddingIndexer {
  readonly name = "embeddings";
  private readonly db: Database;
  private readonly embedder: Embedder;
  private readonly options: Required<Omit<EmbeddingIndexerOptions, "db" | "embedder">>;
  private seenSignature: string | null = null;
  /** The last pass gave a full batch of stored vectors their pgvector value: more may be waiting. */
  private backfillLeft = false;
  private nextScanAt = 0;

  constructor(options: EmbeddingIndexerOptions) {
    this.db = options.db;
    this.embedder = options.embedder;
    this.options = {
      now: options.now ?? (() => new Date()),
      random: options.random ?? Math.random,
      retryDelaysMs: options.retryDelaysMs ?? EMBEDDINGS_RETRY_DELAYS_MS,
      timeoutMs: options.timeoutMs ?? EMBEDDINGS_WORKER_TIMEOUT_MS,
      batch: options.batch ?? EMBEDDINGS_ARTICLES_PER_PASS,
      rescanMs: options.rescanMs ?? EMBEDDINGS_RESCAN_MS,
      name: options.name ?? `embeddings-${randomBytes(3).toString("hex")}`,
      vectorSearch: options.vectorSearch ?? "auto",
    };
  }

  get model(): string {
    return this.embedder.model;
  }

  /** Whether the vectors go to pgvector's column too (decided as the search decides). */
  private async inPgvector(): Promise<boolean> {
    return (await resolveVectorSearch(this.db, this.options.vectorSearch)) === "pgvector";
  }

  /**
   * The scheduler task's run: one pass when an article changed since the last complete pass (or a
   * retry or the rescan is due), else nothing but one cheap query.
   */
  async run(): Promise<void> {
    const signature = await this.articlesSignature();
    const now = this.options.now().getTime();
    if (signature === this.seenSignature && now < this.nextScanAt) return;
    const outcome = await this.pass();
    const claimed = outcome.embedded + outcome.removed + outcome.failed;
    // A full batch (or a full backfill) may have left work behind: the next step passes again.
    if (claimed < this.options.batch && !this.backfillLeft) {
      this.seenSignature = signature;
      const retryAt = await this.earliestRetry();
      this.nextScanAt = Math.min(now + this.options.rescanMs, retryAt ?? Number.POSITIVE_INFINITY);
    }
  }

  /** Passes until nothing is due (tests, and a re-index run by hand). */
  async drain(): Promise<PassOutcome> {
    const total: PassOutcome = { embedded: 0, removed: 0, failed: 0, passagesEmbedded: 0 };
    for (;;) {
      const outcome = await this.pass();
      total.embedded += outcome.embedded;
      total.removed += outcome.removed;
      total.failed += outcome.failed;
      total.passagesEmbedded += outcome.passagesEmbedded;
      if (outcome.embedded + outcome.removed + outcome.failed === 0 && !this.backfillLeft) return total;
    }
  }

  /** Finds due work, claims up to a batch and processes it, one article after another. */
  async pass(): Promise<PassOutcome> {
    await this.pruneDeletions();
    this.backfillLeft =
      (await this.inPgvector()) && (await backfillVectorColumn(this.db, this.model)) === EMBEDDINGS_PGVECTOR_BACKFILL_PER_PASS;
    await this.removeOtherModelsOfHiddenArticles();
    const added = await this.addMissingStates();
    if (added > 0) logger.info("articles to embed", { worker: this.options.name, model: this.model, articles: added });
    const token = `${this.options.name}:${randomBytes(12).toString("hex")}`;
    const outcome: PassOutcome = { embedded: 0, removed: 0, failed: 0, passagesEmbedded: 0 };
    for (const item of await this.claim(token)) {
      try {
        const result = await this.process(item, token);
        if (result === "removed") outcome.removed += 1;
        else if (typeof result === "number") {
          outcome.embedded += 1;
          outcome.passagesEmbedded += result;
        }
      } catch (error) {
        outcome.failed += 1;
        await this.recordFailure(item, token, error);
      }
    }
    return outcome;
  }

  /** Changes when any article is added, edited, (un)published or deleted. */
  private async articlesSignature(): Promise<string> {
    const [row] = await this.db.prisma.$queryRaw<Array<{ articles: number; newest: Date | null }>>`
      SELECT count(*)::int AS "articles", max("updatedAt") AS "newest" FROM "Article"`;
    return `${this.model}|${row?.articles ?? 0}|${row?.newest?.toISOString() ?? ""}`;
  }

  private async earliestRetry(): Promise<number | null> {
    const [row] = await this.db.prisma.$queryRaw<Array<{ at: Date | null }>>`
      SELECT min("nextAttemptAt") AS "at" FROM "ArticleEmbedding" WHERE "model" = ${this.model} AND "attempts" > 0`;
    return row?.at ? row.at.getTime() : null;
  }

  private at(): string {
    return this.options.now().toISOString();
  }

  /** State rows for published, active articles that have none under this model (new ones, or a new model). */
  private async addMissingStates(): Promise<number> {
    return this.db.prisma.$executeRaw`
      INSERT INTO "ArticleEmbedding" ("articleId", "model", "nextAttemptAt")
      SELECT a."id", ${this.model}, (${this.at()}::timestamptz AT TIME ZONE 'UTC')
      FROM "Article" a
      WHERE a."published" AND a."active"
        AND NOT EXISTS (SELECT 1 FROM "ArticleEmbedding" s WHERE s."articleId" = a."id" AND s."model" = ${this.model})
      ON CONFLICT DO NOTHING`;
  }

  /**
   * Forgets deletions every instance has long seen (an instance away longer reloads everything).
   * By the database's clock, which stamped them.
   */
  private async pruneDeletions(): Promise<void> {
    await this.db.prisma.$executeRaw`
      DELETE FROM "PassageEmbeddingDeletion"
      WHERE "deletedAt" < (clock_timestamp() AT TIME ZONE 'UTC') - make_interval(secs => ${EMBEDDINGS_DELETIONS_KEPT_MS / 1000}::int)`;
  }

  /** Vectors of earlier models whose article is no longer shown (the shown ones are replaced when re-embedded). */
  private async removeOtherModelsOfHiddenArticles(): Promise<void> {
    await this.db.prisma.$executeRaw`
      DELETE FROM "PassageEmbedding" p
      WHERE p."model" <> ${this.model}
        AND NOT EXISTS (SELECT 1 FROM "Article" a WHERE a."id" = p."articleId" AND a."published" AND a."active")`;
    await this.db.prisma.$executeRaw`
      DELETE FROM "ArticleEmbedding" s
      WHERE s."model" <> ${this.model}
        AND NOT EXISTS (SELECT 1 FROM "Article" a WHERE a."id" = s."articleId" AND a."published" AND a."active")`;
  }

  /** Claims due state rows: the article changed since it was embedded, or is no longer shown. */
  private async claim(token: string): Promise<Claimed[]> {
    const at = this.at();
    const until = new Date(this.options.now().getTime() + this.options.timeoutMs * 2 + 60_000).toISOString();
    const rows = await this.db.prisma.$queryRaw<Array<{ articleId: string; attempts: number }>>`
      WITH "due" AS MATERIALIZED (
        SELECT s."articleId"
        FROM "ArticleEmbedding" s
        JOIN "Article" a ON a."id" = s."articleId"
        WHERE s."model" = ${this.model}
          AND (s."embeddedVersion" IS DISTINCT FROM a."updatedAt" OR NOT (a."published" AND a."active"))
          AND s."nextAttemptAt" <= (${at}::timestamptz AT TIME ZONE 'UTC')
          AND (s."lockedUntil" IS NULL OR s."lockedUntil" <= (${at}::timestamptz AT TIME ZONE 'UTC'))
        ORDER BY s."nextAttemptAt", s."articleId"
        LIMIT ${this.options.batch}
        FOR UPDATE OF s SKIP LOCKED
      )
      UPDATE "ArticleEmbedding" e
      SET "claimToken" = ${token}, "lockedUntil" = (${until}::timestamptz AT TIME ZONE 'UTC')
      FROM "due"
      WHERE e."articleId" = "due"."articleId" AND e."model" = ${this.model}
      RETURNING e."articleId", e."attempts"`;
    return rows.map((row) => ({ articleId: row.articleId, attempts: Number(row.attempts) }));
  }

  /** Embeds one claimed article (returns the passages sent to the endpoint), or removes it ("removed"), or "lost" its claim. */
  private async process(item: Claimed, token: string): Promise<number | "removed" | "lost"> {
    const article = await this.db.prisma.article.findUnique({
      where: { id: item.articleId },
      select: { title: true, content: true, published: true, active: true, sourceId: true, updatedAt: true },
    });
    if (!article?.published || !article.active) return (await this.remove(item.articleId, token)) ? "removed" : "lost";

    const passages = passagesOf(article);
    const stored = await this.db.prisma.passageEmbedding.findMany({
      where: { articleId: item.articleId, model: this.model },
      select: { section: true, textHash: true, sourceId: true, vector: true },
    });
    const vectorByHash = new Map(stored.map((row) => [row.textHash, row.vector]));
    const toEmbed = passages.filter((passage) => !vectorByHash.has(passage.hash));
    const vectors = await this.embedder.embed(
      toEmbed.map((passage) => passage.text),
      { timeoutMs: this.options.timeoutMs },
    );
    for (const [i, passage] of toEmbed.entries()) vectorByHash.set(passage.hash, vectorToBytes(vectors[i]!));

    const written = await this.write(item.articleId, token, article, passages, stored, vectorByHash);
    return written ? toEmbed.length : "lost";
  }

  /** Stores the article's passages and marks its version embedded, if the claim is still ours. */
  private async write(
    articleId: string,
    token: string,
    article: { sourceId: string; updatedAt: Date },
    passages: PassageText[],
    stored: Array<{ section: number; textHash: string; sourceId: string }>,
    vectorByHash: Map<string, Uint8Array<ArrayBuffer>>,
  ): Promise<boolean> {
    const model = this.model;
    const storedBySection = new Map(stored.map((row) => [row.section, row]));
    const inPgvector = await this.inPgvector();
    const dimensions = vectorByHash.values().next().value?.byteLength;
    if (inPgvector && dimensions) await ensureModelIndex(this.db, model, dimensions / 4);
    return this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.articleEmbedding.updateMany({
        where: { articleId, model, claimToken: token },
        data: {
          embeddedVersion: article.updatedAt,
          attempts: 0,
          lastError: null,
          claimToken: null,
          lockedUntil: null,
          nextAttemptAt: this.options.now(),
        },
      });
      if (count === 0) return false; // The lease ran out and another worker took the article.
      await tx.passageEmbedding.deleteMany({ where: { articleId, model, section: { gte: passages.length } } });
      for (const passage of passages) {
        const current = storedBySection.get(passage.section);
        if (current && current.textHash === passage.hash && current.sourceId === article.sourceId) continue;
        const vector = vectorByHash.get(passage.hash)!;
        await tx.$executeRaw`
          INSERT INTO "PassageEmbedding" ("articleId", "model", "section", "sourceId", "textHash", "vector", "updatedAt")
          VALUES (${articleId}, ${model}, ${passage.section}, ${article.sourceId}, ${passage.hash}, ${vector}, clock_timestamp() AT TIME ZONE 'UTC')
          ON CONFLICT ("articleId", "model", "section") DO UPDATE
          SET "sourceId" = EXCLUDED."sourceId", "textHash" = EXCLUDED."textHash", "vector" = EXCLUDED."vector", "updatedAt" = EXCLUDED."updatedAt"`;
        if (inPgvector) {
          await tx.$executeRaw`
            UPDATE "PassageEmbedding" SET "embedding" = ${vectorLiteral(vectorFromBytes(vector))}::vector
            WHERE "articleId" = ${articleId} AND "model" = ${model} AND "section" = ${passage.section}`;
        }
      }
      // This model now covers the article: earlier models' vectors of it are dead weight.
      await tx.passageEmbedding.deleteMany({ where: { articleId, model: { not: model } } });
      await tx.articleEmbedding.deleteMany({ where: { articleId, model: { not: model } } });
      return true;
    });
  }

  /** Deletes a hidden article's passages and states (every model), if the claim is still ours. */
  private async remove(articleId: string, token: string): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.articleEmbedding.deleteMany({ where: { articleId, model: this.model, claimToken: token } });
      if (count === 0) return false;
      await tx.passageEmbedding.deleteMany({ where: { articleId } });
      await tx.articleEmbedding.deleteMany({ where: { articleId } });
      return true;
    });
  }

  private async recordFailure(item: Claimed, token: string, error: unknown): Promise<void> {
    const attempt = item.attempts + 1;
    const delays = this.options.retryDelaysMs;
    const base = delays[Math.min(attempt, delays.length) - 1] ?? 0;
    const wait = Math.round(base * (0.9 + this.options.random() * 0.2));
    const message = describeError(error).slice(0, ERROR_MAX_CHARS);
    logger.warn("embedding an article failed; it will be retried", {
      worker: this.options.name,
      articleId: item.articleId,
      attempt,
      retryInMs: wait,
      error: message,
    });
    try {
      await this.db.prisma.articleEmbedding.updateMany({
        where: { articleId: item.articleId, model: this.model, claimToken: token },
        data: {
          attempts: attempt,
          lastError: message,
          nextAttemptAt: new Date(this.options.now().getTime() + wait),
          claimToken: null,
          lockedUntil: null,
        },
      });
    } catch (writeError) {
      // The lease expires and the article is claimed again.
      logger.error("recording an embedding failure failed", { worker: this.options.name, error: describeError(writeError) });
    }
  }
}
