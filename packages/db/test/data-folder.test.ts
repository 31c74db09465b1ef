// The embedded data folder: a damaged one is reported as such (with what to do), and db:backup /
// db:restore make a round trip, through the process that has the folder open when there is one.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, DataFolderDamagedError, migrate, openDatabase } from "@parley/db";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runDbCli } from "./support/processes.ts";

let template: string;
let root: string;
let folder: string;
let db: Database | undefined;

// A migrated database folder with a workspace, an agent and an article, made once, copied for each test.
beforeAll(async () => {
  template = mkdtempSync(path.join(tmpdir(), "parley-folder-template-"));
  const setup = await openDatabase({ dataDir: path.join(template, "pglite") });
  await migrate(setup);
  await addRows(setup);
  await setup.close();
}, 120_000);
afterAll(() => {
  rmSync(template, { recursive: true, force: true });
});
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "parley-folder-"));
  folder = path.join(root, "pglite");
  cpSync(path.join(template, "pglite"), folder, { recursive: true });
});
afterEach(async () => {
  await db?.close();
  db = undefined;
  rmSync(root, { recursive: true, force: true });
});

const damagedMessage = (reason: string) =>
  `The data folder ${folder} is damaged and cannot be opened (${reason}). Restore a backup with "npm run db:restore -- <file>" (docs/operators/data-folder-and-backups.md), or delete the folder if it holds nothing you need.`;

async function addRows(database: Database): Promise<void> {
  await database.prisma.workspace.create({ data: { id: "ws-demo", name: "Demo" } });
  await database.prisma.agent.create({ data: { id: "demo", workspaceId: "ws-demo", name: "Demo agent" } });
  await database.prisma.source.create({ data: { id: "src-help", workspaceId: "ws-demo", name: "Help" } });
  await database.prisma.article.create({
    data: { id: "art-welcome", sourceId: "src-help", title: "Welcome", content: "# Welcome\n\nHello.", published: true },
  });
}

/** Everything an admin would miss: the agents, the articles and the conversations. */
async function contents(database: Database) {
  return {
    agents: await database.query(`SELECT id, name, active FROM "Agent" ORDER BY id`),
    articles: await database.query(`SELECT id, title, content FROM "Article" ORDER BY id`),
    conversations: await database.query(`SELECT id, "agentId" FROM "Conversation" ORDER BY id`),
  };
}

async function addConversation(database: Database, id: string): Promise<void> {
  await database.prisma.conversation.create({ data: { id, agentId: "demo" } });
}

describe("a damaged data folder", () => {
  it("with its write-ahead log cut short is reported as damaged, not as PGlite's Aborted(), and its lock is released", async () => {
    for (const file of readdirSync(path.join(folder, "pg_wal"))) {
      if (/^[0-9A-F]{24}$/.test(file)) truncateSync(path.join(folder, "pg_wal", file), 1_000);
    }
    const opening = openDatabase({ dataDir: folder });
    await expect(opening).rejects.toBeInstanceOf(DataFolderDamagedError);
    await expect(opening).rejects.toThrow(damagedMessage("the database engine aborted while reading it"));
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it("with a garbled control file is reported as damaged", async () => {
    writeFileSync(path.join(folder, "global", "pg_control"), Buffer.alloc(100, 0xab), { flag: "r+" });
    await expect(openDatabase({ dataDir: folder })).rejects.toThrow(damagedMessage("PGlite failed to initialize properly"));
  });

  it("without PG_VERSION (half-written) is reported as incomplete, not silently made an empty database", async () => {
    rmSync(path.join(folder, "PG_VERSION"));
    await expect(openDatabase({ dataDir: folder })).rejects.toThrow(
      damagedMessage("PG_VERSION is missing: the folder is incomplete or not a database"),
    );
    expect(existsSync(path.join(folder, "PG_VERSION"))).toBe(false);
  });

  it("makes db:migrate exit 1 with that one line", async () => {
    rmSync(path.join(folder, "PG_VERSION"));
    const result = await runDbCli("migrate", root);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(damagedMessage("PG_VERSION is missing: the folder is incomplete or not a database"));
  }, 60_000);
});

describe("db:backup and db:restore", () => {
  it("back up an open folder through its owner, and restore it once the owner has closed it: the data at the backup", async () => {
    db = await openDatabase({ dataDir: folder });
    await addConversation(db, "conversation-before-backup");
    const atBackup = await contents(db);

    // This process owns the folder: the CLI asks it for the backup through its socket.
    const file = path.join(root, "backups", "one.tar.gz");
    const backup = await runDbCli("backup", root, [file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backed up ${folder} to ${file}`);
    expect(backup.stdout).toContain(`(taken by the running process ${process.pid})`);
    expect(readdirSync(path.dirname(file))).toEqual(["one.tar.gz"]);

    // Written after the backup: the restore must bring back the state before it.
    await addConversation(db, "conversation-after-backup");
    const refused = await runDbCli("restore", root, [file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(new RegExp(`^The data folder .+ is in use by process ${process.pid} `));
    expect((await contents(db)).conversations).toHaveLength(2);
    await db.close();
    db = undefined;

    const restore = await runDbCli("restore", root, [file]);
    expect(restore.code, restore.stderr).toBe(0);
    const replaced = readdirSync(root).find((name) => name.startsWith("pglite.replaced-"));
    expect(restore.stdout).toContain(`The folder it replaced is kept at ${path.join(root, replaced!)}`);
    db = await openDatabase({ dataDir: folder });
    expect(await contents(db)).toEqual(atBackup);
    await db.close();
    // The replaced folder still holds what was written after the backup.
    db = await openDatabase({ dataDir: path.join(root, replaced!) });
    expect((await contents(db)).conversations.map((row) => row.id)).toEqual(["conversation-after-backup", "conversation-before-backup"]);
  }, 120_000);

  it("back up a folder no process has open (the CLI opens it itself) and restore a damaged folder from it", async () => {
    db = await openDatabase({ dataDir: folder });
    await addConversation(db, "conversation-kept");
    const atBackup = await contents(db);
    await db.close();
    db = undefined;

    const backup = await runDbCli("backup", root);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).not.toContain("taken by the running process");
    const [file] = readdirSync(path.join(root, "backups"));
    expect(file).toMatch(/^parley-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.tar\.gz$/);

    rmSync(path.join(folder, "PG_VERSION"));
    const restore = await runDbCli("restore", root, [path.join(root, "backups", file!)]);
    expect(restore.code, restore.stderr).toBe(0);
    db = await openDatabase({ dataDir: folder });
    expect(await contents(db)).toEqual(atBackup);
  }, 120_000);

  it("refuses a file that is not a backup and leaves the folder as it was", async () => {
    const bogus = path.join(root, "bogus.tar.gz");
    writeFileSync(bogus, "not a tarball");
    const restore = await runDbCli("restore", root, [bogus]);
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim()).toMatch(
      new RegExp(
        `^${bogus.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not a usable backup of Parley's embedded database \\(.+\\); nothing was changed\\.$`,
      ),
    );
    expect(readdirSync(root).sort()).toEqual(["bogus.tar.gz", "pglite"]);
    db = await openDatabase({ dataDir: folder });
    expect((await contents(db)).agents.length).toBeGreaterThan(0);
  }, 60_000);
});
