import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { MigrationError, migrate, readMigrations, repoRoot } from "@parley/db";
import { createTestDatabase, type TestDatabase } from "@parley/testing/database";
import { afterEach, describe, expect, it } from "vitest";

const INIT = "20261122000000_init";
const WEBHOOKS = "20261123000000_webhooks";
const TABLES = [
  "Agent",
  "AgentSource",
  "Article",
  "Conversation",
  "IdempotencyRecord",
  "Message",
  "Session",
  "Source",
  "UsageMonth",
  "User",
  "WebhookAttempt",
  "WebhookDelivery",
  "WebhookEndpoint",
  "WebhookEvent",
  "Workspace",
  "_prisma_migrations",
];

let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function emptyDatabase(): Promise<TestDatabase> {
  db = await createTestDatabase({ migrate: false });
  return db;
}

async function tableNames(database: TestDatabase): Promise<string[]> {
  const rows = await database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

async function migrationRows(database: TestDatabase) {
  return database.query<Record<string, unknown>>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
}

/** The checksum Prisma records: SHA-256 (hex) of the migration file as stored on disk. */
function fileChecksum(name: string): string {
  const sql = readFileSync(path.join(repoRoot(), "prisma", "migrations", name, "migration.sql"));
  return createHash("sha256").update(sql).digest("hex");
}

function migrationFile(name: string, sql: string) {
  return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
}

describe("migrate", () => {
  it("applies the migrations from empty: tables, search functions and indexes, and Prisma's record", async () => {
    const database = await emptyDatabase();
    expect(await tableNames(database)).toEqual([]);

    // Every migration folder, in order (later migrations of other features follow these two).
    const applied = await migrate(database);
    expect(applied).toEqual(readMigrations().map((file) => file.name));
    expect(applied.slice(0, 2)).toEqual([INIT, WEBHOOKS]);

    expect(await tableNames(database)).toEqual(expect.arrayContaining(TABLES));
    const functions = await database.query<{ proname: string }>(
      `SELECT proname FROM pg_proc WHERE proname LIKE 'parley\\_%' ORDER BY proname`,
    );
    expect(functions.map((row) => row.proname)).toEqual(["parley_article_document", "parley_search_text", "parley_unaccent"]);
    const indexes = await database.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Article' ORDER BY indexname`,
    );
    const byName = Object.fromEntries(indexes.map((row) => [row.indexname, row.indexdef]));
    expect(byName.Article_visible_document_idx).toContain(`USING gin ("updatedAt", "searchDocument") WHERE (published AND active)`);
    expect(byName.Article_visible_title_trgm_idx).toContain(
      `USING gin ("updatedAt", "searchTitle" gin_trgm_ops) WHERE (published AND active)`,
    );
    expect(byName.Article_visible_content_trgm_idx).toContain(
      `USING gin ("updatedAt", "searchContent" gin_trgm_ops) WHERE (published AND active)`,
    );
    expect(byName.Article_visible_recent_idx).toContain("WHERE (published AND active)");

    // The search functions work, accents and case folded.
    const [search] = await database.query<{ text: string; matches: boolean }>(
      `SELECT parley_search_text('Crème BRÛLÉE') AS text,
              parley_article_document('Resetting passwords', 'Use the link') @@ plainto_tsquery('english', 'reset password') AS matches`,
    );
    expect(search).toEqual({ text: "creme brulee", matches: true });

    // The search columns are generated from title and content, also on update.
    await database.execScript(`
      INSERT INTO "Workspace" ("id", "name") VALUES ('w', 'W');
      INSERT INTO "Source" ("id", "workspaceId", "name", "updatedAt") VALUES ('s', 'w', 'S', now());
      INSERT INTO "Article" ("id", "sourceId", "title", "content", "updatedAt") VALUES ('a', 's', 'Crème', 'Résumé', now());
      UPDATE "Article" SET "content" = 'Resetting passwords' WHERE "id" = 'a';`);
    const [columns] = await database.query<{ searchTitle: string; searchContent: string; matches: boolean }>(
      `SELECT "searchTitle", "searchContent", "searchDocument" @@ plainto_tsquery('english', 'reset password') AS matches FROM "Article"`,
    );
    expect(columns).toEqual({ searchTitle: "creme", searchContent: "resetting passwords", matches: true });

    const rows = await migrationRows(database);
    expect(rows.map((row) => row.migration_name)).toEqual(applied);
    for (const row of rows) {
      expect(row).toMatchObject({
        checksum: fileChecksum(String(row.migration_name)),
        logs: null,
        rolled_back_at: null,
        applied_steps_count: 1,
      });
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.started_at).toBeInstanceOf(Date);
    }
  });

  it("is a no-op the second time", async () => {
    const database = await emptyDatabase();
    await migrate(database);
    const tablesBefore = await tableNames(database);
    const recordsBefore = await migrationRows(database);

    expect(await migrate(database)).toEqual([]);

    expect(await tableNames(database)).toEqual(tablesBefore);
    expect(await migrationRows(database)).toEqual(recordsBefore);
  });

  it("refuses an applied migration whose file changed, naming it, and applies nothing else", async () => {
    const database = await emptyDatabase();
    await migrate(database);
    const recordsBefore = await migrationRows(database);
    const edited = readMigrations().map((file) => (file.name === INIT ? migrationFile(file.name, `${file.sql}\n-- edited\n`) : file));
    const withPending = [...edited, migrationFile("20991231000000_add_notes", `CREATE TABLE "Note" ("id" TEXT PRIMARY KEY);`)];

    const attempt = migrate(database, withPending);

    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(attempt).rejects.toThrow(`Migration ${INIT} was modified after it was applied`);
    expect(await tableNames(database)).not.toContain("Note");
    expect(await migrationRows(database)).toEqual(recordsBefore);
  });

  it("refuses when an applied migration's folder is missing", async () => {
    const database = await emptyDatabase();
    await migrate(database);

    await expect(migrate(database, [])).rejects.toThrow(`Migration ${INIT} is applied but its folder is missing`);
  });

  it("rolls a failing migration back entirely: no partial table, no record", async () => {
    const database = await emptyDatabase();
    await migrate(database);
    const recordsBefore = await migrationRows(database);
    const broken = migrationFile(
      "20991231000000_broken",
      `CREATE TABLE "Partial" ("id" TEXT PRIMARY KEY);\nALTER TABLE "Agent" ADD COLUMN "extra" TEXT;\nSELECT * FROM "DoesNotExist";`,
    );

    const attempt = migrate(database, [...readMigrations(), broken]);

    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(attempt).rejects.toThrow("Migration 20991231000000_broken failed and was rolled back");
    expect(await tableNames(database)).not.toContain("Partial");
    const agentColumns = await database.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'Agent' AND column_name = 'extra'`,
    );
    expect(agentColumns).toEqual([]);
    expect(await migrationRows(database)).toEqual(recordsBefore);
    // The database stays usable: the same list without the broken file is up to date.
    expect(await migrate(database)).toEqual([]);
  });
});
