// One owner per embedded data folder. PGlite is a single-process database: two processes that open
// one folder both run, each with its own view, write over each other and leave it unreadable. Every
// process that opens a folder first takes this lock and holds it for its life:
// - `<folder>.lock` names the owner (pid, a random token, its socket). It is created with link(2)
//   from a complete temporary file, so it appears whole, and of two creators exactly one wins.
// - The owner is alive while its socket accepts connections (owner-socket.ts). Without a socket
//   (Windows, a very long path) or when it is missing, its pid is checked, with the process's start
//   time so that a pid reused by another program after a crash does not count as the owner.
// - A stale lock (its owner is gone) is taken over under a guard file named after that lock's
//   token: of several processes racing for it one wins, and it re-reads the lock under the guard,
//   so no process ever removes a lock whose owner lives.
// - It is released by close(), and on any exit of the process (the server's SIGTERM/SIGINT
//   handlers and the CLIs' exit through process.exit); a crash leaves a stale lock, taken over by
//   the next opener.
// - No data folder may lie inside, or hold, a folder a live process holds: a database written
//   into the server's folder would travel in its backups, and a restore of an outer folder would
//   move a running database away. The lock files above the folder and those inside it are read.
import { createHash, randomBytes } from "node:crypto";
import { type Dirent, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { listenOwnerSocket, type OwnerRequestHandler, probeOwnerSocket } from "./owner-socket.ts";

/** What the lock file says about its owner. */
export interface LockOwner {
  pid: number;
  /** Random, per lock: names this generation of the lock and its socket. */
  token: string;
  /** The owner's script (server.mjs, seed.ts...), for the message. */
  command: string;
  host: string;
  since: string;
  socket: string | null;
  /** Linux: the process's start time (clock ticks after boot, /proc/<pid>/stat). */
  startTime: string | null;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly owner: LockOwner,
  ) {
    const where = owner.host === os.hostname() ? "" : ` on ${owner.host}`;
    super(
      `The data folder ${folder} is in use by process ${owner.pid}${where} (${owner.command}, since ${owner.since}): only one process may open it; stop that process first.`,
    );
    this.name = "DataFolderInUseError";
  }
}

export class DataFolderNestedError extends Error {
  constructor(
    readonly folder: string,
    readonly other: { folder: string; owner: LockOwner; inside: boolean },
  ) {
    const relation = other.inside ? "holds" : "is inside";
    const { owner } = other;
    const where = owner.host === os.hostname() ? "" : ` on ${owner.host}`;
    super(
      `The data folder ${folder} ${relation} the data folder ${other.folder}, in use by process ${owner.pid}${where} (${owner.command}, since ${owner.since}): a data folder may not hold another; choose a DATA_DIR outside it.`,
    );
    this.name = "DataFolderNestedError";
  }
}

export interface DataFolderLock {
  folder: string;
  owner: LockOwner;
  /** Answers other processes' requests (a backup of the open folder) through the owner socket. */
  serve(handler: OwnerRequestHandler): void;
  release(): Promise<void>;
}

const ATTEMPTS = 100;
const RETRY_MS = 20;
/** A takeover guard or unreadable lock older than this was left by a crash mid-write. */
const ABANDONED_MS = 10_000;
/**
 * How far the search for a held folder inside the folder goes: levels of subfolders, and entries
 * read (a database's own folder holds a few thousand files; one nested by a DATA_DIR is a level or
 * two down).
 */
const NESTED_SEARCH_DEPTH = 8;
const NESTED_SEARCH_ENTRIES = 100_000;

/**
 * Takes the lock of `folder` for this process, or throws DataFolderInUseError naming the owner,
 * or DataFolderNestedError when the folder is inside, or holds, a folder another process holds.
 */
export async function lockDataFolder(folder: string): Promise<DataFolderLock> {
  const absolute = path.resolve(folder);
  const lockPath = `${absolute}.lock`;
  // Before anything is written: a refused folder inside another leaves nothing there.
  await assertNotNested(absolute);
  mkdirSync(path.dirname(absolute), { recursive: true });
  const token = randomBytes(8).toString("hex");
  const socket = await listenOwnerSocket(`${absolute}.${token}.sock`);
  const owner: LockOwner = {
    pid: process.pid,
    token,
    command: path.basename(process.argv[1] ?? process.argv0),
    host: os.hostname(),
    since: new Date().toISOString(),
    socket: socket?.path ?? null,
    startTime: processStartTime(process.pid),
  };
  const content = JSON.stringify(owner);
  try {
    await acquire(absolute, lockPath, content);
    // Again under our lock: of two folders locked at once, one inside the other, the later sees the first.
    await assertNotNested(absolute).catch((error) => {
      removeIfOurs(lockPath, content);
      throw error;
    });
  } catch (error) {
    await socket?.close();
    throw error;
  }
  const releaseOnExit = () => {
    socket?.removeSync();
    removeIfOurs(lockPath, content);
  };
  process.on("exit", releaseOnExit);
  let released = false;
  return {
    folder: absolute,
    owner,
    serve: (handler) => socket?.serve(handler),
    release: async () => {
      if (released) return;
      released = true;
      process.off("exit", releaseOnExit);
      // The socket goes first: a prober then falls back to our pid, which is alive, so nobody
      // takes the lock over between these two steps.
      await socket?.close();
      removeIfOurs(lockPath, content);
    },
  };
}

async function acquire(folder: string, lockPath: string, content: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createExclusive(lockPath, content)) return;
    const current = readLock(lockPath);
    if (current?.owner && (await ownerIsAlive(current.owner))) throw new DataFolderInUseError(folder, current.owner);
    if (current && (current.owner || isOlderThan(lockPath, ABANDONED_MS)) && takeOver(folder, lockPath, current, content)) return;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  throw new Error(`Could not take the lock ${lockPath}: other processes kept changing it; try again.`);
}

/** Creates `file` with `content` unless it exists; the file never appears half-written. */
function createExclusive(file: string, content: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A filesystem without hard links: an exclusive create (a reader may see it empty for a moment).
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") {
      try {
        writeFileSync(file, content, { flag: "wx", mode: 0o600 });
        return true;
      } catch (inner) {
        if ((inner as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw inner;
      }
    }
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

interface LockFile {
  raw: string;
  /** Undefined when the file is unreadable (being written without hard links, or damaged). */
  owner?: LockOwner;
}

function readLock(lockPath: string): LockFile | null {
  let raw: string;
  try {
    raw = readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const owner = JSON.parse(raw) as LockOwner;
    if (Number.isInteger(owner.pid) && owner.pid > 0 && typeof owner.token === "string") return { raw, owner };
  } catch {
    // Unreadable: see LockFile.owner.
  }
  return { raw };
}

async function ownerIsAlive(owner: LockOwner): Promise<boolean> {
  if (owner.socket) {
    const state = await probeOwnerSocket(owner.socket);
    if (state === "listening") return true;
    if (state === "refused") return false;
  }
  return pidIsAlive(owner);
}

function pidIsAlive(owner: LockOwner): boolean {
  // Another machine's process cannot be checked from here: assume it is alive.
  if (owner.host !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const startTime = processStartTime(owner.pid);
  return !(owner.startTime && startTime && startTime !== owner.startTime);
}

/** Throws DataFolderNestedError when a live process holds a folder above `folder` or inside it. */
async function assertNotNested(folder: string): Promise<void> {
  const other = (await heldFolderAbove(folder)) ?? (await heldFolderInside(folder));
  if (other) throw new DataFolderNestedError(folder, other);
}

async function heldFolderAbove(folder: string) {
  for (let dir = path.dirname(folder); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const owner = await liveOwnerOf(`${dir}.lock`);
    if (owner) return { folder: dir, owner, inside: false };
  }
  return null;
}

/** A bounded walk (symbolic links are not followed) for the lock file of a held folder. */
async function heldFolderInside(folder: string) {
  let level = [folder];
  let entriesRead = 0;
  for (let depth = 0; depth < NESTED_SEARCH_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = readEntries(dir);
      entriesRead += entries.length;
      if (entriesRead > NESTED_SEARCH_ENTRIES) return null;
      for (const entry of entries) {
        const entryPath = path.join(dir, entry.name);
        if (entry.isDirectory()) next.push(entryPath);
        else if (entry.isFile() && entry.name.endsWith(".lock")) {
          const owner = await liveOwnerOf(entryPath);
          if (owner) return { folder: entryPath.slice(0, -".lock".length), owner, inside: true };
        }
      }
    }
    level = next;
  }
  return null;
}

function readEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    // Absent (a folder not created yet), or not ours to read.
    return [];
  }
}

async function liveOwnerOf(lockPath: string): Promise<LockOwner | null> {
  let owner: LockOwner | undefined;
  try {
    owner = readLock(lockPath)?.owner;
  } catch {
    // Not a readable file (a folder named *.lock, no permission): no lock of ours.
    return null;
  }
  return owner && (await ownerIsAlive(owner)) ? owner : null;
}

/** Replaces the stale lock `stale` by ours; false when another process got there first. */
function takeOver(folder: string, lockPath: string, stale: LockFile, content: string): boolean {
  const staleId = stale.owner?.token ?? createHash("sha256").update(stale.raw).digest("hex").slice(0, 16);
  const guard = `${lockPath}.takeover-${staleId}`;
  if (!createExclusive(guard, content)) {
    // A process that crashed inside this very step left its guard behind.
    if (isOlderThan(guard, ABANDONED_MS)) rmSync(guard, { force: true });
    return false;
  }
  try {
    // Under the guard only we may replace this generation of the lock; its owner is gone.
    if (readLock(lockPath)?.raw !== stale.raw) return false;
    rmSync(lockPath);
    const staleSocket = stale.owner?.socket;
    if (staleSocket?.startsWith(`${folder}.`) && staleSocket.endsWith(".sock")) rmSync(staleSocket, { force: true });
    return createExclusive(lockPath, content);
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Removes the lock if it is still ours (it is not, after a takeover of a lock judged stale). */
function removeIfOurs(lockPath: string, content: string): void {
  try {
    if (readFileSync(lockPath, "utf8") === content) rmSync(lockPath);
  } catch {
    // Already gone.
  }
}

function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

/** Linux: when the process started (field 22 of /proc/<pid>/stat); null elsewhere or when it is gone. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
