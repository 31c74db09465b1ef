// Applies prisma/migrations the way `prisma migrate deploy` does, without Prisma's native engine:
// each pending migration runs in its own transaction and is recorded in `_prisma_migrations` with
// the same columns and checksum (SHA-256 of the file), so either tool can take over from the other.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Database, SqlSession } from "./client.ts";
import { repoRoot } from "./client.ts";

// Prisma's own DDL for its bookkeeping table.
const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
);`;

// The advisory lock key prisma migrate uses, so the two never run at once on one database.
const ADVISORY_LOCK = 72707369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function migrationsDir(): string {
  return path.join(repoRoot(), "prisma", "migrations");
}

export function readMigrations(dir = migrationsDir()): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations; returns the names applied (empty when up to date). Refuses, before
 * applying anything, when an applied migration's file changed, is missing, or failed earlier.
 */
export function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withSession((session) => migrateSession(session, migrations));
}

async function migrateSession(db: SqlSession, migrations: MigrationFile[]): Promise<string[]> {
  // Wait for any other runner (another instance starting, or prisma migrate) to finish first.
  await db.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK]);
  try {
    await db.execScript(MIGRATIONS_TABLE);
    const applied = await db.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const files = new Map(migrations.map((m) => [m.name, m]));
    for (const row of applied) {
      const file = files.get(row.migration_name);
      if (!row.finished_at) {
        throw new MigrationError(`Migration ${row.migration_name} failed earlier and was not rolled back; resolve it before migrating.`);
      }
      if (!file) {
        throw new MigrationError(`Migration ${row.migration_name} is applied but its folder is missing from prisma/migrations.`);
      }
      if (file.checksum !== row.checksum) {
        throw new MigrationError(
          `Migration ${row.migration_name} was modified after it was applied (checksum mismatch). Restore the original file and add a new migration instead.`,
        );
      }
    }
    const done = new Set(applied.map((row) => row.migration_name));
    const pending = migrations.filter((m) => !done.has(m.name));
    for (const migration of pending) await applyOne(db, migration);
    return pending.map((m) => m.name);
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK]);
  }
}

async function applyOne(db: SqlSession, migration: MigrationFile): Promise<void> {
  const record = `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
    VALUES ('${randomUUID()}', '${migration.checksum}', '${migration.name.replaceAll("'", "''")}', now(), now(), 1);`;
  try {
    await db.execScript(`BEGIN;\n${migration.sql}\n;\n${record}\nCOMMIT;`);
  } catch (error) {
    await db.execScript("ROLLBACK;").catch(() => {});
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`);
  }
}
