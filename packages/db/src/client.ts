// One way to get a database: embedded PGlite in a data folder when no DATABASE_URL is set,
// PostgreSQL through @prisma/adapter-pg otherwise. Same schema and migrations on both.
// An embedded folder is opened only under its lock (folder-lock.ts): one process owns it.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { dumpOpenDatabase, EXTENSIONS, openPGliteFolder } from "./data-folder.ts";
import { dbEnv } from "./env.ts";
import { lockDataFolder } from "./folder-lock.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type DatabaseMode = "embedded" | "server";

/** Direct SQL on the driver, bypassing Prisma (migrations, tests, hand-tuned reads). */
export interface SqlSession {
  /** Runs a script of one or more SQL statements (simple query protocol). */
  execScript(sql: string): Promise<void>;
  /** Runs one parameterised query. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** A composed statement (Prisma.sql): its text with $1.. placeholders and their values. */
export interface Statement {
  text: string;
  values: unknown[];
}

export interface RowsOptions {
  /**
   * Keep the statement prepared on each server connection (its text is parsed and planned once
   * per connection, not per call). Only for statements whose text has one fixed shape: every
   * distinct text stays prepared for the connection's lifetime.
   */
  prepared?: boolean;
}

export interface Database extends SqlSession {
  mode: DatabaseMode;
  prisma: PrismaClient;
  /**
   * Runs a Prisma.sql statement on the driver, without Prisma's query engine (the public reads
   * that run on every help request): rows as Prisma's $queryRaw gives them for the columns Parley
   * reads (text, int4, float4, bool, timestamp as a Date in UTC, as Prisma stores it).
   */
  rows<Row>(statement: Statement, options?: RowsOptions): Promise<Row[]>;
  /** Runs `fn` on a single connection (session state such as advisory locks stays with it). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Embedded only: a consistent copy of the open database (a gzipped tarball of its folder). */
  backup?(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded database is used. */
  url?: string;
  /** Folder of the embedded database; `undefined` with no url means in memory. */
  dataDir?: string;
  /** Pool size in server mode. */
  poolSize?: number;
  /** In memory only: start from this copy of a database (a tarball as `backup()` gives) instead of an empty one. */
  initialData?: Blob;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openServer(options.url, options.poolSize);
  return options.dataDir ? openEmbedded(options.dataDir) : openInMemory(options.initialData);
}

async function openInMemory(initialData: Blob | undefined): Promise<Database> {
  const pglite = await PGlite.create({ extensions: EXTENSIONS, loadDataDir: initialData });
  return { ...embeddedDatabase(pglite), backup: () => dumpOpenDatabase(pglite) };
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const lock = await lockDataFolder(dataDir);
  let pglite: PGlite;
  try {
    pglite = await openPGliteFolder(lock.folder);
  } catch (error) {
    await lock.release();
    throw error;
  }
  // Another process's `npm run db:backup` reaches this database through the lock's socket.
  lock.serve(() => dumpOpenDatabase(pglite));
  const database = embeddedDatabase(pglite);
  return {
    ...database,
    backup: () => dumpOpenDatabase(pglite),
    close: async () => {
      try {
        await database.close();
      } finally {
        await lock.release();
      }
    },
  };
}

function embeddedDatabase(pglite: PGlite): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const session: SqlSession = {
    execScript: async (sql) => {
      await pglite.exec(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await pglite.query<Row>(sql, params)).rows,
  };
  return {
    mode: "embedded",
    prisma,
    ...session,
    rows: async <Row>(statement: Statement) =>
      (await pglite.query<Row>(statement.text, driverValues(statement.values), { parsers: UTC_TIMESTAMP_PARSERS })).rows,
    withSession: (fn) => fn(session),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

async function openServer(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    mode: "server",
    prisma,
    execScript: async (sql) => {
      await pool.query(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as Row[],
    rows: async <Row>(statement: Statement, options?: RowsOptions) =>
      (
        await pool.query({
          text: statement.text,
          values: driverValues(statement.values),
          types: UTC_TIMESTAMP_TYPES,
          ...(options?.prepared ? { name: preparedName(statement.text) } : {}),
        })
      ).rows as Row[],
    withSession: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn({
          execScript: async (sql) => {
            await client.query(sql);
          },
          query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

// Prisma keeps DateTime in `timestamp(3)` columns as UTC wall time. Both drivers would read and
// write such a column in the process's local time zone, so timestamps cross the driver as UTC.
const TIMESTAMP_OID = 1114;
const parseUtcTimestamp = (text: string): Date => new Date(`${text.replace(" ", "T")}Z`);
const UTC_TIMESTAMP_PARSERS = { [TIMESTAMP_OID]: parseUtcTimestamp };
const UTC_TIMESTAMP_TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? parseUtcTimestamp
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
/** A Date parameter as its UTC wall time, which PostgreSQL reads into a timestamp column unchanged. */
const driverValues = (values: unknown[]): unknown[] =>
  values.map((value) => (value instanceof Date ? value.toISOString().replace("Z", "") : value));

/** The repository root (the folder whose package.json declares workspaces). */
export function repoRoot(start = process.cwd()): string {
  let dir = path.resolve(/*turbopackIgnore: true*/ start);
  for (;;) {
    if (existsSync(path.join(dir, "turbo.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(/*turbopackIgnore: true*/ start);
    dir = parent;
  }
}

/** The embedded data folder: DATA_DIR, relative paths taken from the repository root. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ repoRoot(), dbEnv().DATA_DIR, "pglite");
}

const globalKey = Symbol.for("parley.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Database> };

/**
 * The process-wide database from the environment. One per process: PGlite allows a single
 * owner of its data folder, and a pool per process is what PostgreSQL wants.
 */
export function getDb(): Promise<Database> {
  const store = globalThis as GlobalWithDb;
  if (!store[globalKey]) {
    // A failed open (the folder locked or damaged) is not remembered: a later call tries again.
    const opening: Promise<Database> = openDatabase({
      url: dbEnv().DATABASE_URL,
      dataDir: dbEnv().DATABASE_URL ? undefined : dataDir(),
    }).catch((error) => {
      if (store[globalKey] === opening) store[globalKey] = undefined;
      throw error;
    });
    store[globalKey] = opening;
  }
  return store[globalKey];
}

/** Closes the process-wide database (graceful shutdown, CLI scripts). */
export async function closeDb(): Promise<void> {
  const store = globalThis as GlobalWithDb;
  const pending = store[globalKey];
  store[globalKey] = undefined;
  if (pending) await (await pending).close();
}

const preparedNames = new Map<string, string>();

/** The prepared statement's name: from the text, so one name never stands for two texts. */
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `parley_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    preparedNames.set(text, name);
  }
  return name;
}
