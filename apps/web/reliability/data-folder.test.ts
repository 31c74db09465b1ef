// One owner per embedded data folder, and a server that fails loudly, on real processes (whatever
// DATABASE_URL the suite runs with, these use an embedded DATA_DIR of their own):
// - while a server on the folder acknowledges turns, `npm run db:seed` and a second server on the
//   same folder exit non-zero with the one-line message naming the folder and the server's pid, and
//   `npm run db:backup` is taken by the server; after a SIGKILL and a restart (which takes over the
//   crashed server's lock; a request that arrives while it starts is answered) every acknowledged
//   turn is on disk, and the backup holds the turns acknowledged before it. The CLIs run as npm
//   runs them (tsx), without npm's own start-up;
// - a server on a port in use exits 1 with one line, before it opens any database.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateAgentKey } from "@parley/core/agents";
import { seed } from "@parley/core/demo";
import { PGVECTOR_MISSING, pgvectorUsable } from "@parley/core/knowledge";
import { type Database, migrate, openDatabase, restoreDataFolder } from "@parley/db";
import { freePort } from "@parley/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppInstance, newAuthSecret, printLogsOnFailure, productionAppEnv, startApp } from "./support/apps.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createSeededDatabase } from "./support/database.ts";
import { sendTurn, sleep } from "./support/http.ts";
import { SERVER_ENTRY } from "./support/paths.ts";
import { type Finished, runDbCli, runToExit } from "./support/run.ts";

/** The non-empty lines a process printed. */
function lines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The user messages on disk, as "conversationId text". */
async function storedTurns(db: Database): Promise<Set<string>> {
  const rows = await db.query<{ conversationId: string; text: string }>(`SELECT "conversationId", text FROM "Message" WHERE role = 'user'`);
  return new Set(rows.map((row) => `${row.conversationId} ${row.text}`));
}

/** Polls `url` until a server accepts the connection; that first request must be answered: its status. */
async function firstAnswer(url: string, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })).status;
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
      if (!refused || Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("one owner per embedded data folder", () => {
  let dataDir: string;
  let folder: string;
  let app: AppInstance | undefined;
  let agent: { id: string; key: string };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "parley-reliability-owner-"));
    folder = path.join(dataDir, "pglite");
    // Prepared as `npm start` does (migrate, seed), plus a key for the demo agent.
    const setup = await openDatabase({ dataDir: folder });
    await migrate(setup);
    await seed(setup, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
    agent = { id: "demo", key: (await generateAgentKey(setup, "demo")).key };
    await setup.close();
  });

  printLogsOnFailure(() => [app]);

  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const embeddedEnv = (dir: string) => ({ DATABASE_URL: "", REDIS_URL: "", DATA_DIR: dir, RATE_LIMIT_SCALE: "100" });
  const startEmbedded = (port?: number) => startApp({ name: "owner", port, env: embeddedEnv(dataDir) });

  it("refuses db:seed and a second server on a live folder, and loses no acknowledged turn", async () => {
    app = await startEmbedded();
    const owner = app;
    const inUse = new RegExp(
      `^The data folder ${escapeRegExp(folder)} is in use by process ${owner.pid} \\(server\\.mjs, since .+\\): only one process may open it; stop that process first\\.$`,
    );

    // Turns flow from two clients for the whole test; each acknowledged (200) one is remembered.
    const acknowledged: Array<{ conversationId: string; message: string }> = [];
    const failures: string[] = [];
    let flowing = true;
    const client = async (name: string) => {
      for (let turn = 0; flowing; turn++) {
        const message = `${name} turn ${turn}`;
        try {
          const outcome = await sendTurn(owner.url, agent, { message });
          if (outcome.status === 200) acknowledged.push({ conversationId: outcome.body.conversationId, message });
          else failures.push(`${outcome.status} ${JSON.stringify(outcome.body)}`);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    };
    const clients = Promise.all([client("a"), client("b")]);
    const waitForTurns = async (count: number) => {
      while (acknowledged.length < count) await sleep(50);
    };
    await waitForTurns(5);

    const seeding: Finished = await runDbCli("seed", [], { ...embeddedEnv(dataDir), ADMIN_PASSWORD });
    expect(seeding.code, seeding.stderr).toBe(1);
    expect(lines(seeding.stderr)).toEqual([expect.stringMatching(inUse)]);
    expect(lines(seeding.stdout)).toEqual([]);

    // A DATA_DIR inside the live folder (that database would travel in the server's backups) is
    // refused as well, by db:seed and by a server, before anything is written there.
    const nested = new RegExp(
      `^The data folder ${escapeRegExp(path.join(folder, "pglite"))} is inside the data folder ${escapeRegExp(folder)}, in use by process ${owner.pid} \\(server\\.mjs, since .+\\): a data folder may not hold another; choose a DATA_DIR outside it\\.$`,
    );
    const before = readdirSync(folder).sort();
    const nestedSeed = await runDbCli("seed", [], { ...embeddedEnv(folder), ADMIN_PASSWORD });
    expect(nestedSeed.code, nestedSeed.stderr).toBe(1);
    expect(lines(nestedSeed.stderr)).toEqual([expect.stringMatching(nested)]);
    const nestedServer = await runToExit(
      process.execPath,
      [SERVER_ENTRY],
      productionAppEnv(await freePort(), newAuthSecret(), embeddedEnv(folder)),
    );
    expect(nestedServer.code, nestedServer.stderr).toBe(1);
    expect(lines(nestedServer.stderr)).toEqual([expect.stringMatching(new RegExp(`^Parley could not start: ${nested.source.slice(1)}`))]);
    expect(readdirSync(folder).sort()).toEqual(before);

    const secondPort = await freePort();
    const second = await runToExit(process.execPath, [SERVER_ENTRY], productionAppEnv(secondPort, newAuthSecret(), embeddedEnv(dataDir)));
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).not.toContain("Parley is listening");
    expect(lines(second.stderr)).toEqual([expect.stringMatching(new RegExp(`^Parley could not start: ${inUse.source.slice(1)}`))]);

    // A backup while the turns flow is taken by the server itself.
    const acknowledgedBeforeBackup = acknowledged.length;
    const backupFile = path.join(dataDir, "live-backup.tar.gz");
    const backup = await runDbCli("backup", [backupFile], embeddedEnv(dataDir));
    expect(backup.code, backup.stderr).toBe(0);
    expect(lines(backup.stdout)).toEqual([expect.stringContaining(`(taken by the running process ${owner.pid})`)]);
    await waitForTurns(acknowledged.length + 5);
    flowing = false;
    await clients;
    expect(failures).toEqual([]);

    // A crash, then a restart on the same folder: the crashed server's lock is taken over.
    // A request that reaches the restarted server while it still starts waits for it, and is answered.
    await owner.kill();
    const firstHealth = firstAnswer(`${owner.url}/api/health`);
    app = await startEmbedded(owner.port);
    expect(await firstHealth).toBe(200);
    const afterRestart = await sendTurn(app.url, agent, { message: "after the restart" });
    expect(afterRestart.status, JSON.stringify(afterRestart.body)).toBe(200);
    await app.stop();
    app = undefined;

    const check = await openDatabase({ dataDir: folder });
    const onDisk = await storedTurns(check);
    await check.close();
    expect(acknowledged.filter((turn) => !onDisk.has(`${turn.conversationId} ${turn.message}`))).toEqual([]);
    expect(onDisk.size).toBe(acknowledged.length + 1);

    // The live backup restores (into a folder of its own) with every turn acknowledged before it was asked for.
    const restoredDir = mkdtempSync(path.join(tmpdir(), "parley-reliability-restored-"));
    try {
      await restoreDataFolder(path.join(restoredDir, "pglite"), backupFile);
      const restored = await openDatabase({ dataDir: path.join(restoredDir, "pglite") });
      const inBackup = await storedTurns(restored);
      await restored.close();
      const missing = acknowledged
        .slice(0, acknowledgedBeforeBackup)
        .filter((turn) => !inBackup.has(`${turn.conversationId} ${turn.message}`));
      expect(missing).toEqual([]);
      console.log(
        `data folder owner: ${acknowledged.length} turns acknowledged while db:seed (exit ${seeding.code}) and a second server ` +
          `(exit ${second.code}) were refused and db:backup was taken by the server; after SIGKILL and restart all ` +
          `${acknowledged.length} on disk, none lost; the live backup holds ${inBackup.size} turns ` +
          `(${acknowledgedBeforeBackup} acknowledged before it was asked for)`,
      );
    } finally {
      rmSync(restoredDir, { recursive: true, force: true });
    }
  });
});

describe("a server that cannot start", () => {
  let occupied: Server | undefined;
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "parley-reliability-port-"));
  });

  afterAll(async () => {
    await new Promise((resolve) => (occupied ? occupied.close(resolve) : resolve(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("on a port in use exits 1 with one line, before it opens the database or starts its workers", async () => {
    const port = await freePort();
    occupied = createServer();
    await new Promise<void>((resolve) => occupied!.listen(port, "127.0.0.1", resolve));

    const started = performance.now();
    const result = await runToExit(
      process.execPath,
      [SERVER_ENTRY],
      productionAppEnv(port, newAuthSecret(), { DATABASE_URL: "", REDIS_URL: "", DATA_DIR: dataDir }),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result.stdout)).toEqual([]);
    expect(lines(result.stderr)).toEqual([
      `Port ${port} is in use: another process listens on 127.0.0.1:${port}; stop it or set PORT to a free port.`,
    ]);
    // It never opened (nor created) the embedded database.
    expect(readdirSync(dataDir)).toEqual([]);
    console.log(`port in use: exit ${result.code} after ${seconds.toFixed(1)} s with one line: ${lines(result.stderr)[0]}`);
  });

  it("asked for pgvector on a PostgreSQL without it, exits 1 with one line naming the setting, before its workers start", async ({
    skip,
  }) => {
    const db = await createSeededDatabase();
    try {
      if (await pgvectorUsable(db)) skip(); // This server has pgvector: nothing to refuse.
      const port = await freePort();
      const result = await runToExit(
        process.execPath,
        [SERVER_ENTRY],
        productionAppEnv(port, newAuthSecret(), {
          DATABASE_URL: db.url,
          REDIS_URL: "",
          EMBEDDINGS_BASE_URL: "http://127.0.0.1:9/v1",
          EMBEDDINGS_MODEL: "any-model",
          EMBEDDINGS_VECTOR_SEARCH: "pgvector",
        }),
      );
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).not.toContain("Parley is listening");
      expect(lines(result.stderr)).toEqual([`Parley could not start: ${PGVECTOR_MISSING}`]);
      // No worker ran: nothing was queued for embedding.
      expect(await db.query(`SELECT 1 FROM "ArticleEmbedding"`)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
