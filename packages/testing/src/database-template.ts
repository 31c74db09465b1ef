// One migrated database per test run, copied by every test file instead of migrating its own:
// a dump of an in-memory PGlite (loaded with loadDataDir), or a template database on DATABASE_URL's
// server (CREATE DATABASE ... TEMPLATE). global-setup.ts makes it and names it in TEMPLATE_VARIABLE;
// createTestDatabase copies it only while it matches the migration files on disk.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { migrate, openDatabase, readMigrations, repoRoot } from "@parley/db";
import pg from "pg";

/** The dump's path (embedded) or the template database's name (server), set by the global setup. */
export const TEMPLATE_VARIABLE = "PARLEY_TEST_DATABASE_TEMPLATE";

// Serialises template builds across concurrent runs on one server (migrate.ts's key is 72707369).
const TEMPLATE_LOCK = 72707370;

/** A hash of the migration files: their names and checksums, in order. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const migration of readMigrations()) hash.update(`${migration.name}\n${migration.checksum}\n`);
  return hash.digest("hex");
}

/** What a dump depends on: the migrations, and the PGlite and pgvector builds that wrote it. */
function dumpKey(): string {
  const require = createRequire(path.join(repoRoot(), "packages", "db", "package.json"));
  const version = (name: string) =>
    (JSON.parse(readFileSync(path.join(path.dirname(require.resolve(name)), "..", "package.json"), "utf8")) as { version: string }).version;
  const builds = `pglite ${version("@electric-sql/pglite")}, pgvector ${version("@electric-sql/pglite-pgvector")}`;
  return createHash("sha256").update(`${migrationsHash()}\n${builds}`).digest("hex").slice(0, 16);
}

export function templateDatabaseName(): string {
  return `parley_template_${migrationsHash().slice(0, 12)}`;
}

/** The dump to load, when the global setup made one for the migrations on disk. */
export function currentDump(): string | undefined {
  const dump = process.env[TEMPLATE_VARIABLE];
  return dump && path.basename(dump) === `${dumpKey()}.tar` ? dump : undefined;
}

/** The template database to copy, when the global setup made one for the migrations on disk. */
export function currentTemplateDatabase(): string | undefined {
  const name = process.env[TEMPLATE_VARIABLE];
  return name && name === templateDatabaseName() ? name : undefined;
}

/**
 * A migrated in-memory database's dump (an uncompressed tarball, quicker to load), copied into
 * `runDir`. Kept between runs in node_modules/.cache under a key of everything it depends on, and
 * used again only after it loads and has every migration applied.
 */
export async function preparePgliteTemplate(runDir: string): Promise<string> {
  const key = dumpKey();
  const cacheDir = path.join(repoRoot(), "node_modules", ".cache", "parley-testing");
  const cached = path.join(cacheDir, `${key}.tar`);
  if (!(await isMigratedDump(cached))) {
    mkdirSync(cacheDir, { recursive: true });
    // Written under a name of its own and renamed: a concurrent run never reads half a file.
    const partial = `${cached}.${process.pid}.partial`;
    writeFileSync(partial, await migratedDump());
    renameSync(partial, cached);
  }
  const dump = path.join(runDir, `${key}.tar`);
  copyFileSync(cached, dump);
  return dump;
}

async function migratedDump(): Promise<Buffer> {
  const db = await openDatabase({});
  try {
    await migrate(db);
    return gunzipSync(await db.backup!());
  } finally {
    await db.close();
  }
}

async function isMigratedDump(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  try {
    const db = await openDatabase({ initialData: new Blob([readFileSync(file)]) });
    try {
      return (await migrate(db)).length === 0;
    } finally {
      await db.close();
    }
  } catch {
    return false;
  }
}

/**
 * The template database for the migrations on disk, made once per server (under an advisory lock,
 * so concurrent runs wait for one build): migrated under a temporary name, then renamed, marked as
 * a template and closed to connections, so that copying it never meets a session inside it.
 */
export async function preparePostgresTemplate(serverUrl: string): Promise<string> {
  const name = templateDatabaseName();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    const existing = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount === 0) await buildTemplateDatabase(admin, serverUrl, name);
  } finally {
    await admin.end();
  }
  return name;
}

async function buildTemplateDatabase(admin: pg.Client, serverUrl: string, name: string): Promise<void> {
  const building = `${name}_building`;
  // Left by a run that stopped half-way.
  await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${building}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${building}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  await admin.query(`ALTER DATABASE "${building}" WITH ALLOW_CONNECTIONS false`);
  await waitForNoSessions(admin, building);
  await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true`);
}

/** A closed client's server process can outlive its socket for a moment; renaming needs it gone. */
async function waitForNoSessions(admin: pg.Client, database: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const sessions = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1", [database]);
    if (sessions.rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The template database ${database} still has sessions after 5 s`);
}
