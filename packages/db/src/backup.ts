// Backup and restore of the embedded data folder (`npm run db:backup`, `npm run db:restore`).
// A backup is a gzipped tarball of the folder (PGlite's dumpDataDir) taken by the process that has
// it open: the running server when there is one (asked through its owner socket), this process
// otherwise. A restore needs the folder to itself: it unpacks the backup into a new folder beside
// it, checks that PGlite opens it, and only then swaps the two, keeping the old folder aside.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "./client.ts";
import { EXTENSIONS } from "./data-folder.ts";
import { DataFolderInUseError, lockDataFolder } from "./folder-lock.ts";
import { requestFromOwner } from "./owner-socket.ts";

export interface BackupResult {
  file: string;
  bytes: number;
  /** The pid of the running process that took it, when the folder was in use. */
  ownerPid?: number;
}

/** Writes a consistent backup of the database in `folder` to `file`. */
export async function backupDataFolder(folder: string, file: string): Promise<BackupResult> {
  const absolute = path.resolve(folder);
  if (!existsSync(path.join(absolute, "PG_VERSION"))) throw new Error(`There is no embedded database in ${absolute} to back up.`);
  let dump: Buffer;
  let ownerPid: number | undefined;
  try {
    const db = await openDatabase({ dataDir: absolute });
    try {
      dump = await db.backup!();
    } finally {
      await db.close();
    }
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error;
    if (!error.owner.socket) {
      throw new Error(`${error.message} It cannot be asked for a backup here (no owner socket): stop it, then back up again.`);
    }
    ownerPid = error.owner.pid;
    dump = await requestFromOwner(error.owner.socket, "backup");
  }
  writeWhole(file, dump);
  return { file: path.resolve(file), bytes: dump.length, ownerPid };
}

export interface RestoreResult {
  /** Where the folder that was replaced is kept (none when there was no folder). */
  replaced?: string;
}

/** Replaces the database in `folder` by the backup `file`; refuses while a process has the folder open. */
export async function restoreDataFolder(folder: string, file: string): Promise<RestoreResult> {
  if (!existsSync(file)) throw new Error(`There is no backup file ${path.resolve(file)}.`);
  const backup = new Blob([readFileSync(file)]);
  const lock = await lockDataFolder(folder);
  try {
    const staging = `${lock.folder}.restoring`;
    rmSync(staging, { recursive: true, force: true });
    try {
      const restored = await PGlite.create({ dataDir: staging, loadDataDir: backup, extensions: EXTENSIONS });
      try {
        await restored.query(`SELECT count(*) FROM "_prisma_migrations"`);
      } finally {
        await restored.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new Error(`${path.resolve(file)} is not a usable backup of Parley's embedded database (${reason}); nothing was changed.`);
    }
    let replaced: string | undefined;
    if (existsSync(lock.folder) && readdirSync(lock.folder).length > 0) {
      replaced = `${lock.folder}.replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(lock.folder, replaced);
    } else {
      rmSync(lock.folder, { recursive: true, force: true });
    }
    renameSync(staging, lock.folder);
    return { replaced };
  } finally {
    await lock.release();
  }
}

/** Writes `file` through a temporary name, so that it never exists half-written. */
function writeWhole(file: string, data: Buffer): void {
  const partial = `${file}.partial`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
}
