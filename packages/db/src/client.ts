// One way to get a database: embedded PGlite in a data folder when no DATABASE_URL is set,
// PostgreSQL through @prisma/adapter-pg otherwise. Same schema and migrations on both.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "./env.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

export type DatabaseMode = "embedded" | "server";

/** Direct SQL on the driver, bypassing Prisma (migrations, tests, hand-tuned reads). */
export interface SqlSession {
  /** Runs a script of one or more SQL statements (simple query protocol). */
  execScript(sql: string): Promise<void>;
  /** Runs one parameterised query. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database extends SqlSession {
  mode: DatabaseMode;
  prisma: PrismaClient;
  /** Runs `fn` on a single connection (session state such as advisory locks stays with it). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded database is used. */
  url?: string;
  /** Folder of the embedded database; `undefined` with no url means in memory. */
  dataDir?: string;
  /** Pool size in server mode. */
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.url ? openServer(options.url, options.poolSize) : openEmbedded(options.dataDir);
}

async function openEmbedded(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const extensions = { btree_gin, pg_trgm, unaccent };
  const pglite = await PGlite.create(dataDir ? { dataDir, extensions } : { extensions });
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
  return path.resolve(/*turbopackIgnore: true*/ repoRoot(), env().DATA_DIR, "pglite");
}

const globalKey = Symbol.for("parley.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Database> };

/**
 * The process-wide database from the environment. One per process: PGlite allows a single
 * owner of its data folder, and a pool per process is what PostgreSQL wants.
 */
export function getDb(): Promise<Database> {
  const store = globalThis as GlobalWithDb;
  store[globalKey] ??= openDatabase({ url: env().DATABASE_URL, dataDir: env().DATABASE_URL ? undefined : dataDir() });
  return store[globalKey];
}

/** Closes the process-wide database (graceful shutdown, CLI scripts). */
export async function closeDb(): Promise<void> {
  const store = globalThis as GlobalWithDb;
  const pending = store[globalKey];
  store[globalKey] = undefined;
  if (pending) await (await pending).close();
}
