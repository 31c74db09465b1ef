// Where a model's passage vectors are searched: by the database with pgvector, or by this
// process's own index synced from the database. EMBEDDINGS_VECTOR_SEARCH chooses; "auto" takes
// pgvector on a PostgreSQL server that has it (shared by every instance, nothing to load or hold in
// memory) and the in-process index on the embedded database, which is one process anyway and where
// pgvector's index costs far more (about 8 ms to insert a 384-dimension vector into it, against
// nothing, and a few ms more per query).
import type { Database } from "@parley/db";
import { countInDatabase, nearestInDatabase, pgvectorUsable } from "./pgvector.ts";
import type { VectorSearchSetting } from "./settings.ts";
import { StoredPassageIndex } from "./stored-index.ts";
import type { Neighbour } from "./vector-index.ts";

export type VectorSearchKind = Exclude<VectorSearchSetting, "auto">;

export const PGVECTOR_MISSING =
  "EMBEDDINGS_VECTOR_SEARCH is pgvector, but the database has no usable pgvector: it needs the extension at 0.8 or later and the PassageEmbedding.embedding column (docs/operators/semantic-retrieval.md)";

/** The kind the setting gives on this database; an explicit pgvector without pgvector is an error. */
export async function resolveVectorSearch(db: Database, setting: VectorSearchSetting): Promise<VectorSearchKind> {
  if (setting === "in-process") return "in-process";
  const usable = await pgvectorUsable(db);
  if (setting === "pgvector") {
    if (!usable) throw new Error(PGVECTOR_MISSING);
    return "pgvector";
  }
  return usable && db.mode === "server" ? "pgvector" : "in-process";
}

export class PassageSearch {
  /** Used only when the vectors are searched in process. */
  readonly inProcess: StoredPassageIndex;
  private chosen: Promise<VectorSearchKind> | null = null;

  constructor(
    private readonly db: Database,
    readonly model: string,
    readonly setting: VectorSearchSetting = "auto",
    syncIntervalMs?: number,
  ) {
    this.inProcess = new StoredPassageIndex(db, model, syncIntervalMs);
  }

  kind(): Promise<VectorSearchKind> {
    this.chosen ??= resolveVectorSearch(this.db, this.setting).catch((error: unknown) => {
      this.chosen = null;
      throw error;
    });
    return this.chosen;
  }

  /** Ready to search: the in-process index loaded, or caught up when its last sync is old. */
  async ready(): Promise<void> {
    if ((await this.kind()) === "in-process") await this.inProcess.current();
  }

  /** Brings the in-process index up to date now (nothing to do for pgvector). */
  async sync(): Promise<void> {
    if ((await this.kind()) === "in-process") await this.inProcess.sync();
  }

  /** The `k` passages of `sources` nearest to `query` (unit length), best first. */
  async nearest(query: Float32Array, k: number, sources: ReadonlySet<string>): Promise<Neighbour[]> {
    if ((await this.kind()) === "pgvector") return nearestInDatabase(this.db, this.model, query, k, sources);
    return (await this.inProcess.current()).search(query, k, sources);
  }

  /** Passages searchable now (the in-process count is as of the last sync). */
  async count(): Promise<number> {
    if ((await this.kind()) === "pgvector") return countInDatabase(this.db, this.model);
    return this.inProcess.index.size;
  }
}
