// Opening an embedded (PGlite) data folder, and telling a damaged one apart. PGlite fails on a
// damaged folder in several ways, none of which says so: a truncated WAL or a missing `base/`
// aborts its WebAssembly module (`RuntimeError: Aborted()`), a garbled `pg_control` gives
// "PGlite failed to initialize properly", and a folder without `PG_VERSION` is silently initialised
// again as an empty database beside the old files. Each becomes a DataFolderDamagedError saying what
// to do. (A damaged table page is found only when a query reads it: PostgreSQL's own error.)
import { mkdirSync, readdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { vector } from "@electric-sql/pglite-pgvector";

/** The PostgreSQL extensions the migrations use (pgvector: passage vectors searched in SQL). */
export const EXTENSIONS = { btree_gin, pg_trgm, unaccent, vector };

export class DataFolderDamagedError extends Error {
  constructor(
    readonly folder: string,
    readonly reason: string,
  ) {
    super(
      `The data folder ${folder} is damaged and cannot be opened (${reason}). Restore a backup with "npm run db:restore -- <file>" (docs/operators/data-folder-and-backups.md), or delete the folder if it holds nothing you need.`,
    );
    this.name = "DataFolderDamagedError";
  }
}

/** Opens (or, when empty or absent, creates) the database in `folder`; the caller holds its lock. */
export async function openPGliteFolder(folder: string): Promise<PGlite> {
  mkdirSync(folder, { recursive: true });
  const entries = readdirSync(folder);
  if (entries.length > 0 && !entries.includes("PG_VERSION")) {
    throw new DataFolderDamagedError(folder, "PG_VERSION is missing: the folder is incomplete or not a database");
  }
  try {
    return await PGlite.create({ dataDir: folder, extensions: EXTENSIONS });
  } catch (error) {
    // The folder could not be read or written at all (permissions, a full disk): not damage.
    if (isSystemError(error)) throw error;
    throw new DataFolderDamagedError(folder, damageReason(error));
  }
}

function isSystemError(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  return typeof code === "string" && typeof syscall === "string";
}

function damageReason(error: unknown): string {
  if (error instanceof WebAssembly.RuntimeError) return "the database engine aborted while reading it";
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.trim() || "unknown error";
}

/**
 * A consistent copy of an open database, as a gzipped tarball of its folder: taken between
 * transactions (under PGlite's transaction mutex, so no statement runs while the files are read),
 * after a checkpoint, so that little is left to replay when it is opened.
 */
export async function dumpOpenDatabase(pglite: PGlite): Promise<Buffer> {
  await pglite.exec("CHECKPOINT");
  const dump = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir("gzip"));
  return Buffer.from(await dump.arrayBuffer());
}
