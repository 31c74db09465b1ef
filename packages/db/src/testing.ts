// Test databases: a fresh, migrated database per test file. Embedded (in-memory PGlite) by
// default; with DATABASE_URL set, a throwaway database on that server, dropped on close, so
// parallel files and concurrent runs never collide.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "./client.ts";
import { migrate } from "./migrate.ts";

export interface TestDatabase extends Database {
  /** The server URL of this throwaway database (server mode only). */
  url?: string;
}

export async function createTestDatabase(options: { migrate?: boolean; poolSize?: number } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (!serverUrl) {
    const db = await openDatabase({});
    if (options.migrate !== false) await migrate(db);
    return db;
  }
  const name = `parley_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl, name);
  const db = await openDatabase({ url, poolSize: options.poolSize ?? 25 });
  if (options.migrate !== false) await migrate(db);
  return {
    ...db,
    url,
    close: async () => {
      await db.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
