// One owner per embedded data folder: the lock that every opener takes (packages/db folder-lock.ts),
// in this process and in others, with stale locks of dead processes taken over.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { type Database, DataFolderInUseError, type DataFolderLock, lockDataFolder, openDatabase } from "@parley/db";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Holder, runDbCli, startHolder } from "./support/processes.ts";

let template: string;
let root: string;
let folder: string;
const opened: Array<Database | DataFolderLock> = [];
const holders: Holder[] = [];

// A database folder made once (PGlite's initdb is slow), copied for each test that opens one.
beforeAll(async () => {
  template = mkdtempSync(path.join(tmpdir(), "parley-lock-template-"));
  await (await openDatabase({ dataDir: path.join(template, "pglite") })).close();
});
afterAll(() => {
  rmSync(template, { recursive: true, force: true });
});
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "parley-lock-"));
  folder = path.join(root, "pglite");
});
afterEach(async () => {
  for (const holder of holders.splice(0)) {
    holder.child.kill("SIGKILL");
    await holder.exited;
  }
  for (const item of opened.splice(0)) await ("release" in item ? item.release() : item.close());
  rmSync(root, { recursive: true, force: true });
});

const lockFile = () => `${folder}.lock`;
const inUseMessage = (pid: number) =>
  new RegExp(
    `^The data folder ${escapeRegExp(folder)} is in use by process ${pid} \\(.+\\): only one process may open it; stop that process first\\.$`,
  );

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function hold(mode: "open" | "lock" = "lock"): Promise<Holder> {
  const holder = await startHolder(folder, mode);
  holders.push(holder);
  return holder;
}

/** A process that has exited: its pid is free (and not reused this soon). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

function copyTemplate(): void {
  cpSync(path.join(template, "pglite"), folder, { recursive: true });
}

function writeLock(owner: Record<string, unknown>): void {
  const base = {
    token: "0123456789abcdef",
    command: "server.mjs",
    host: os.hostname(),
    since: "2026-11-25T00:00:00.000Z",
    socket: null,
    startTime: null,
  };
  writeFileSync(lockFile(), JSON.stringify({ ...base, ...owner }));
}

describe("the data folder lock", () => {
  it("refuses a second open of the folder in the same process, naming the folder and the owner, until the first is closed", async () => {
    copyTemplate();
    const first = await openDatabase({ dataDir: folder });
    opened.push(first);
    const second = openDatabase({ dataDir: folder });
    await expect(second).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(second).rejects.toThrow(inUseMessage(process.pid));
    // The refused opener left the owner's lock and data alone.
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(process.pid);
    await first.execScript("CREATE TABLE kept (id int); INSERT INTO kept VALUES (1)");

    await first.close();
    opened.splice(0);
    expect(existsSync(lockFile())).toBe(false);
    expect(readdirSync(root).filter((name) => name.endsWith(".sock"))).toEqual([]);
    const again = await openDatabase({ dataDir: folder });
    opened.push(again);
    expect(await again.query("SELECT id FROM kept")).toEqual([{ id: 1 }]);
  });

  it("refuses an opener in another process while this one holds the folder, and in this one while another does", async () => {
    copyTemplate();
    const lock = await lockDataFolder(folder);
    opened.push(lock);
    const refused = await hold("open");
    expect(refused.firstLine).toMatch(/^refused: /);
    expect(refused.firstLine.slice("refused: ".length)).toMatch(inUseMessage(process.pid));
    expect(await refused.exited).toBe(1);
    await lock.release();
    opened.splice(0);

    const holder = await hold("lock");
    expect(holder.firstLine).toBe("ready");
    await expect(lockDataFolder(folder)).rejects.toThrow(inUseMessage(holder.pid));
    await expect(openDatabase({ dataDir: folder })).rejects.toThrow(inUseMessage(holder.pid));
  });

  // db:seed is the app's (apps/web/test/seed-cli.test.ts refuses it the same way).
  it("refuses db:migrate on a folder another process holds: exit 1 and the one-line message", async () => {
    const holder = await hold("lock");
    for (const cli of ["migrate"]) {
      const result = await runDbCli(cli, root);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr.trim()).toMatch(inUseMessage(holder.pid));
      expect(result.stdout).toBe("");
    }
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(holder.pid);
  }, 60_000);

  it("releases the lock when the holder exits normally or on SIGTERM", async () => {
    const normal = await hold("lock");
    normal.child.stdin!.end();
    expect(await normal.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);

    const terminated = await hold("lock");
    terminated.child.kill("SIGTERM");
    expect(await terminated.exited).toBe(143);
    expect(existsSync(lockFile())).toBe(false);
    expect(readdirSync(root).filter((name) => name.endsWith(".sock"))).toEqual([]);
  });

  it("takes over the lock of a process that crashed (SIGKILL) while holding the folder", async () => {
    copyTemplate();
    const crashed = await hold("open");
    crashed.child.kill("SIGKILL");
    await crashed.exited;
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(crashed.pid);

    const db = await openDatabase({ dataDir: folder });
    opened.push(db);
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(process.pid);
    // The crashed owner's socket file is gone with its lock.
    expect(readdirSync(root).filter((name) => name.endsWith(".sock"))).toHaveLength(1);
  }, 60_000);

  it("takes over a lock naming a dead pid, and one naming a live pid of another process start (pid reuse)", async () => {
    writeLock({ pid: await deadPid() });
    const first = await lockDataFolder(folder);
    expect(first.owner.pid).toBe(process.pid);
    await first.release();

    // The parent of this process is alive, but it started before the recorded start time.
    writeLock({ pid: process.ppid, startTime: "999999999999" });
    const second = await lockDataFolder(folder);
    opened.push(second);
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).token).toBe(second.owner.token);
  });

  it("keeps a lock whose pid is alive with no socket to ask (the pid check alone)", async () => {
    writeLock({ pid: process.ppid });
    await expect(lockDataFolder(folder)).rejects.toThrow(inUseMessage(process.ppid));
  });

  it("lets exactly one of several processes racing for a stale lock take it over", async () => {
    writeLock({ pid: await deadPid() });
    const racers = await Promise.all(Array.from({ length: 4 }, () => startHolder(folder, "lock")));
    holders.push(...racers);
    const winners = racers.filter((racer) => racer.firstLine === "ready");
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    for (const loser of racers.filter((racer) => racer !== winner)) {
      expect(loser.firstLine.slice("refused: ".length)).toMatch(inUseMessage(winner.pid));
      expect(await loser.exited).toBe(1);
    }
    expect(JSON.parse(readFileSync(lockFile(), "utf8")).pid).toBe(winner.pid);
    expect(readdirSync(root).filter((name) => name.includes("takeover") || name.endsWith(".tmp"))).toEqual([]);
  }, 60_000);
});

describe("data folders inside one another", () => {
  const insideMessage = (inner: string, pid: number) =>
    new RegExp(
      `^The data folder ${escapeRegExp(inner)} is inside the data folder ${escapeRegExp(folder)}, in use by process ${pid} \\(.+\\): a data folder may not hold another; choose a DATA_DIR outside it\\.$`,
    );
  const holdsMessage = (outer: string, inner: string, pid: number) =>
    new RegExp(
      `^The data folder ${escapeRegExp(outer)} holds the data folder ${escapeRegExp(inner)}, in use by process ${pid} \\(.+\\): a data folder may not hold another; choose a DATA_DIR outside it\\.$`,
    );

  it("refuses every db command whose DATA_DIR is inside a folder another process holds: exit 1, one line, nothing written there", async () => {
    copyTemplate();
    const holder = await hold("lock");
    const before = readdirSync(folder).sort();
    const inner = path.join(folder, "pglite");
    const backupFile = path.join(root, "backup.tar.gz");
    writeFileSync(backupFile, "not read: the folder is refused first");
    // db:seed and the start-up's setup are the app's CLIs (apps/web/test/seed-cli.test.ts); they open the folder as migrate does.
    const commands: Array<[string, string[]]> = [
      ["migrate", []],
      ["restore", [backupFile]],
    ];
    for (const [cli, args] of commands) {
      const result = await runDbCli(cli, folder, args);
      expect(result.code, `${cli}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim(), cli).toMatch(insideMessage(inner, holder.pid));
    }
    expect(readdirSync(folder).sort()).toEqual(before);

    // A database nested there before this rule: backed up nowhere (by default into DATA_DIR/backups).
    cpSync(path.join(template, "pglite"), inner, { recursive: true });
    const backup = await runDbCli("backup", folder);
    expect(backup.code, backup.stderr).toBe(1);
    expect(backup.stderr.trim()).toMatch(insideMessage(inner, holder.pid));
    expect(readdirSync(folder).sort()).toEqual([...before, "pglite"].sort());
  }, 120_000);

  it("refuses a folder below a held one at any depth, in this process too, and opens a sibling", async () => {
    const holder = await hold("lock");
    const deep = path.join(folder, "base", "a", "pglite");
    await expect(lockDataFolder(deep)).rejects.toThrow(insideMessage(deep, holder.pid));
    await expect(openDatabase({ dataDir: deep })).rejects.toThrow(insideMessage(deep, holder.pid));
    expect(existsSync(path.join(folder, "base"))).toBe(false);
    const sibling = await lockDataFolder(path.join(root, "other", "pglite"));
    opened.push(sibling);
  });

  it("refuses a folder that holds a folder another process holds (a restore would move it away)", async () => {
    const inner = path.join(folder, "nested", "pglite");
    const holder = await startHolder(inner, "lock");
    holders.push(holder);
    expect(holder.firstLine).toBe("ready");
    await expect(lockDataFolder(folder)).rejects.toThrow(holdsMessage(folder, inner, holder.pid));
    const result = await runDbCli("migrate", root);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim()).toMatch(holdsMessage(folder, inner, holder.pid));
    expect(existsSync(lockFile())).toBe(false);
    expect(readdirSync(folder)).toEqual(["nested"]);
  }, 60_000);

  it("pays no heed to a lock left inside by a process that is gone", async () => {
    mkdirSync(path.join(folder, "nested"), { recursive: true });
    writeFileSync(
      path.join(folder, "nested", "pglite.lock"),
      JSON.stringify({
        pid: await deadPid(),
        token: "0123456789abcdef",
        command: "seed.ts",
        host: os.hostname(),
        since: "",
        socket: null,
        startTime: null,
      }),
    );
    const lock = await lockDataFolder(folder);
    opened.push(lock);
    expect(lock.owner.pid).toBe(process.pid);
  });
});
