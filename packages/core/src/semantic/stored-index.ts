// The in-process index of one model's stored passage vectors, built from the database at start and
// kept in step with what any instance's worker writes. Each write stamps the row with the database's
// clock (updatedAt), so a sync reads the rows changed since the newest it has seen (with a margin for
// transactions that committed late), and a row count that differs from the index's size means rows
// were deleted (or missed): then the keys are compared, and as a last resort everything is reloaded.
import type { Database } from "@parley/db";
import { EMBEDDINGS_SYNC_INTERVAL_MS } from "../limits.ts";
import { vectorFromBytes } from "./passages.ts";
import { VectorIndex } from "./vector-index.ts";

/** Rows written this long before the newest one seen are read again (commits are not in stamp order). */
const LATE_COMMIT_MARGIN_MS = 30_000;
const PAGE_ROWS = 2_000;

interface VectorRow {
  articleId: string;
  section: number;
  sourceId: string;
  vector: Uint8Array;
  updatedAt: Date;
}

export class StoredPassageIndex {
  readonly index = new VectorIndex();
  private newest: Date | null = null;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    readonly model: string,
    private readonly syncIntervalMs = EMBEDDINGS_SYNC_INTERVAL_MS,
  ) {}

  /** The index, synced first when the last sync is older than the interval (one sync at a time). */
  async current(): Promise<VectorIndex> {
    if (performance.now() - this.lastSyncAt >= this.syncIntervalMs) await this.sync();
    return this.index;
  }

  /** Brings the index up to date with the database now. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const startedAt = performance.now();
    const [state] = await this.db.prisma.$queryRaw<Array<{ rows: number; newest: Date | null }>>`
      SELECT count(*)::int AS "rows", max("updatedAt") AS "newest"
      FROM "PassageEmbedding" WHERE "model" = ${this.model}`;
    const rows = Number(state?.rows ?? 0);
    const newest = state?.newest ?? null;
    if (newest && (!this.newest || newest.getTime() > this.newest.getTime())) {
      await this.loadChanged(this.newest ? new Date(this.newest.getTime() - LATE_COMMIT_MARGIN_MS) : null);
      this.newest = newest;
    }
    if (this.index.size !== rows) await this.dropDeleted();
    if (this.index.size !== rows) {
      // Rows with a stamp older than the margin were missed: start over from the stored vectors.
      this.index.clear();
      this.newest = null;
      await this.loadChanged(null);
      this.newest = newest;
    }
    this.lastSyncAt = startedAt;
  }

  /** Reads the rows stamped after `since` (all rows when null) into the index, a page at a time. */
  private async loadChanged(since: Date | null): Promise<void> {
    const after = since?.toISOString() ?? null;
    let cursor: { articleId: string; section: number } | null = null;
    for (;;) {
      const page: VectorRow[] = await this.db.prisma.$queryRaw<VectorRow[]>`
        SELECT "articleId", "section", "sourceId", "vector", "updatedAt"
        FROM "PassageEmbedding"
        WHERE "model" = ${this.model}
          AND (${after}::text IS NULL OR "updatedAt" > (${after}::timestamptz AT TIME ZONE 'UTC'))
          AND (${cursor?.articleId ?? null}::text IS NULL OR ("articleId", "section") > (${cursor?.articleId ?? ""}, ${cursor?.section ?? 0}::int))
        ORDER BY "articleId", "section"
        LIMIT ${PAGE_ROWS}`;
      for (const row of page) {
        this.index.upsert({ articleId: row.articleId, section: Number(row.section), sourceId: row.sourceId }, vectorFromBytes(row.vector));
      }
      if (page.length < PAGE_ROWS) return;
      const last = page[page.length - 1]!;
      cursor = { articleId: last.articleId, section: Number(last.section) };
    }
  }

  /** Drops the passages the database no longer has. */
  private async dropDeleted(): Promise<void> {
    const rows = await this.db.prisma.$queryRaw<Array<{ articleId: string; section: number }>>`
      SELECT "articleId", "section" FROM "PassageEmbedding" WHERE "model" = ${this.model}`;
    const stored = new Set(rows.map((row) => `${row.articleId}\u0000${Number(row.section)}`));
    for (const key of this.index.keys()) {
      if (!stored.has(`${key.articleId}\u0000${key.section}`)) this.index.remove(key.articleId, key.section);
    }
  }
}
