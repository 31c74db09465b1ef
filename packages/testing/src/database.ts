// Test databases: a fresh, migrated database per test file. Embedded (in-memory PGlite) by
// default; with DATABASE_URL set, a throwaway database on that server, dropped on close, so
// parallel files and concurrent runs never collide. Under vitest each one is a copy of the run's
// migrated template (database-template.ts), which is quicker than migrating; elsewhere, or when the
// migrations changed since the run started, each is migrated from empty.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Database, migrate, openDatabase } from "@parley/db";
import pg from "pg";
import { currentDump, currentTemplateDatabase } from "./database-template.ts";

export interface TestDatabase extends Database {
  /** The server URL of this throwaway database (server mode only). */
  url?: string;
}

export async function createTestDatabase(options: { migrate?: boolean; poolSize?: number } = {}): Promise<TestDatabase> {
  const migrated = options.migrate !== false;
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (!serverUrl) return migrated ? openMigratedInMemory() : openDatabase({});
  const template = migrated ? currentTemplateDatabase() : undefined;
  const name = `parley_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl, name);
  const db = await openDatabase({ url, poolSize: options.poolSize ?? 25 });
  if (migrated && !template) await migrate(db);
  return {
    ...db,
    url,
    close: async () => {
      await db.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function openMigratedInMemory(): Promise<Database> {
  const dump = currentDump();
  if (dump) return openDatabase({ initialData: await templateDump(dump) });
  const db = await openDatabase({});
  await migrate(db);
  return db;
}

// Read once per process: a test file may open several databases.
const dumps = new Map<string, Promise<Blob>>();
function templateDump(file: string): Promise<Blob> {
  let dump = dumps.get(file);
  if (!dump) {
    dump = readFile(file).then((bytes) => new Blob([bytes]));
    dumps.set(file, dump);
  }
  return dump;
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
