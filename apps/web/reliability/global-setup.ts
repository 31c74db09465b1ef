// Global setup of the reliability suite (vitest.reliability.config.ts): refuses to run without a
// reachable PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), builds the production app once (turbo
// restores an unchanged build from its cache), and gives the test files a run folder for the app
// logs. At the end it stops any app process a crashed test file left behind and drops its
// throwaway databases: each test file stops and drops its own, this is only the safety net.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import IORedis from "ioredis";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { APP_DIR, REPO_ROOT } from "./support/paths.ts";
import { cleanUpRun } from "./support/registry.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of this run: app logs, and the registry of started processes and databases. */
    reliabilityRunDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    throw new Error(
      "The reliability suite runs against PostgreSQL and Redis: set DATABASE_URL and REDIS_URL, e.g.\n" +
        "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run test:reliability",
    );
  }
  await checkPostgres(databaseUrl);
  await checkRedis(redisUrl);
  // While iterating on the tests alone: the app's package includes these files, so each edit
  // would otherwise rebuild it. Never set in CI.
  if (process.env.RELIABILITY_SKIP_BUILD) console.log("reliability: RELIABILITY_SKIP_BUILD is set, using the existing build");
  else build();
  if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID")))
    throw new Error("There is no production build: apps/web/.next/BUILD_ID is missing");

  const runDir = mkdtempSync(path.join(tmpdir(), "parley-reliability-"));
  project.provide("reliabilityRunDir", runDir);
  console.log(`reliability: app logs in ${runDir}`);

  return async () => {
    const leftovers = await cleanUpRun(runDir, databaseUrl);
    if (leftovers.processes || leftovers.databases) {
      console.log(`reliability: stopped ${leftovers.processes} leftover app process(es), dropped ${leftovers.databases} database(s)`);
    }
    // Logs are kept only when asked for (a failing test already prints the tail of its app's log).
    if (!process.env.RELIABILITY_KEEP_LOGS) rmSync(runDir, { recursive: true, force: true });
  };
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new Error(`The reliability suite cannot reach PostgreSQL at DATABASE_URL (${redact(url)}): ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkRedis(url: string): Promise<void> {
  const client = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 5_000, retryStrategy: () => null });
  let cause: Error | undefined;
  client.on("error", (error: Error) => {
    cause ??= error;
  });
  try {
    await client.connect();
    const pong = await client.ping();
    if (pong !== "PONG") throw new Error(`PING answered ${pong}`);
  } catch (error) {
    throw new Error(`The reliability suite cannot reach Redis at REDIS_URL (${redact(url)}): ${(cause ?? (error as Error)).message}`);
  } finally {
    client.disconnect();
  }
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/** The production build the tests start (`node apps/web/server.mjs`), as `npm start` makes it. */
function build(): void {
  const started = Date.now();
  const result = spawnSync("npx", ["--no-install", "turbo", "run", "build", "--filter=@parley/app", "--output-logs=errors-only"], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", TURBO_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`The production build failed (npx turbo run build --filter=@parley/app):\n${output}`);
  }
  console.log(`reliability: production build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
