// createTestDatabase copies the run's migrated template (global-setup.ts): the copy must be the
// database that migrating from empty gives, and `migrate: false` must still give an empty one.
import { migrate, readMigrations, type SqlSession } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterEach, describe, expect, it } from "vitest";

const opened: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

async function open(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const db = await createTestDatabase(options);
  opened.push(db);
  return db;
}

/** The public schema as the catalog describes it, and what each table holds. */
async function schema(db: SqlSession) {
  const rows = (sql: string) => db.query(sql);
  const tables = await rows(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables as { name: string }[]) {
    if (name === "_prisma_migrations") continue;
    counts[name] = Number((await db.query<{ count: string }>(`SELECT count(*) AS count FROM "${name}"`))[0]?.count);
  }
  return {
    extensions: await rows(`SELECT extname, extversion FROM pg_extension ORDER BY 1`),
    columns: await rows(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
    ),
    constraints: await rows(
      `SELECT conrelid::regclass::text AS owner, conname, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    ),
    indexes: await rows(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`),
    functions: await rows(
      `SELECT proname, pg_get_function_identity_arguments(oid) AS arguments, md5(prosrc) AS body
       FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1, 2`,
    ),
    triggers: await rows(`SELECT tgrelid::regclass::text AS owner, tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`),
    types: await rows(
      `SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
       WHERE t.typnamespace = 'public'::regnamespace ORDER BY 1, e.enumsortorder`,
    ),
    sequences: await rows(`SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`),
    counts,
    migrations: await rows(
      `SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished, rolled_back_at
       FROM "_prisma_migrations" ORDER BY migration_name`,
    ),
  };
}

describe("createTestDatabase", () => {
  // One empty database serves both checks: PGlite's initdb is the slow part of opening one.
  it("with migrate: false gives an empty database, and migrating it gives what a copy is: same catalog, no rows, every migration once", async () => {
    const migrated = await open({ migrate: false });
    expect(await migrated.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).toEqual([]);
    expect(await migrate(migrated)).toEqual(readMigrations().map((file) => file.name));
    const copied = await open();

    const copiedSchema = await schema(copied);
    expect(copiedSchema).toEqual(await schema(migrated));
    expect(copiedSchema.migrations.map((row) => row.migration_name)).toEqual(readMigrations().map((file) => file.name));
    expect(Object.values(copiedSchema.counts).every((count) => count === 0)).toBe(true);
    expect(await migrate(copied)).toEqual([]);
  });

  it("gives each caller a database of its own", async () => {
    const first = await open();
    const second = await open();
    await first.prisma.workspace.create({ data: { id: "ws-own", name: "Own" } });
    expect(await second.prisma.workspace.count()).toBe(0);
    expect(await first.prisma.workspace.count()).toBe(1);
  });
});
