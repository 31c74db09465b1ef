// A record, in the run folder, of every app process and throwaway database the test files start, so
// that the global teardown can stop and drop what a crashed test file left behind. Only what this
// run recorded is touched: process groups by id, databases by name.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const PROCESSES = "processes";
const DATABASES = "databases";

export function recordProcess(runDir: string, pid: number): void {
  appendFileSync(path.join(runDir, PROCESSES), `${pid}\n`);
}

export function recordDatabase(runDir: string, name: string): void {
  appendFileSync(path.join(runDir, DATABASES), `${name}\n`);
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the recorded process groups still running and drops the recorded databases still there. */
export async function cleanUpRun(runDir: string, serverUrl: string): Promise<{ processes: number; databases: number }> {
  let processes = 0;
  for (const pid of lines(path.join(runDir, PROCESSES)).map(Number)) {
    if (!Number.isInteger(pid) || pid <= 1 || !isAlive(pid)) continue;
    process.kill(-pid, "SIGKILL");
    processes += 1;
  }
  let databases = 0;
  const names = lines(path.join(runDir, DATABASES)).filter((name) => /^[a-z0-9_]+$/.test(name));
  if (names.length > 0) {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      for (const name of names) {
        const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (!rowCount) continue;
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        databases += 1;
      }
    } finally {
      await client.end();
    }
  }
  return { processes, databases };
}
