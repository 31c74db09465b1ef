// Real app processes for the reliability suite: the production build started as production starts
// it (`node apps/web/server.mjs`), each on its own port, in its own process group, with an explicit
// environment (nothing leaks in from the test process) and its log in the run folder; or, for the
// topology test, a container of the image doing the same. The process helpers are the benchmark's
// too (@parley/testing/processes); every started group is recorded for the global teardown's
// safety net.
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { appServerEnv, freePort, type ServerProcess, startProcess, tail, waitForHttp } from "@parley/testing/processes";
import { beforeEach, inject } from "vitest";
import { appProcessEnv } from "../../../../scripts/app-process.mjs";
import { appDatabaseUrl } from "./database.ts";
import { REPO_ROOT, SERVER_ENTRY } from "./paths.ts";
import { recordProcess } from "./registry.ts";

export interface AppInstance {
  name: string;
  /** http://127.0.0.1:<port>, also its APP_URL. */
  url: string;
  port: number;
  pid: number;
  /** The last lines of its log (for failure messages). */
  logTail(lines?: number): string;
  /** SIGTERM (the server's graceful shutdown), SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** SIGKILL at once: no shutdown code runs. */
  kill(): Promise<void>;
  /** Sends `signal` to the server process alone and returns at once (stop() and kill() wait). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves when the server process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface AppOptions {
  name: string;
  /** DATABASE_URL, REDIS_URL, DATA_DIR, RATE_LIMIT_SCALE, LLM_*...; an empty string leaves a variable unset. */
  env: Record<string, string | undefined>;
  /** NEXTAUTH_SECRET: instances of one deployment share it. */
  authSecret?: string;
  /** Reuse a port (a restart); a free one otherwise. */
  port?: number;
}

const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

/**
 * The environment of a production app process on 127.0.0.1:`port` (appServerEnv), with the process
 * settings `npm start` gives it (scripts/app-process.mjs: the heap cap, the allocator); `extra`
 * adds or overrides.
 */
export function productionAppEnv(
  port: number,
  authSecret: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return appServerEnv(port, authSecret, { ...appProcessEnv({ DATABASE_URL: extra.DATABASE_URL }), ...extra });
}

export function newAuthSecret(): string {
  return randomBytes(32).toString("hex");
}

/**
 * The stores every instance of a multi-instance deployment shares: the PostgreSQL database at
 * `databaseUrl` (its connections named `applicationName` in pg_stat_activity) and this run's Redis.
 */
export function sharedStoresEnv(databaseUrl: string, applicationName: string): { DATABASE_URL: string; REDIS_URL: string } {
  return { DATABASE_URL: appDatabaseUrl(databaseUrl, applicationName), REDIS_URL: redisUrl() };
}

/** Resolves when `child` has exited (at once if it has), with its exit code or the signal that ended it. */
function exitOf(child: ChildProcess): AppInstance["exited"] {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

export async function startApp(options: AppOptions): Promise<AppInstance> {
  const runDir = inject("reliabilityRunDir");
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(runDir, `${options.name}-${port}-${Date.now()}.log`);
  const server: ServerProcess = startProcess({
    name: options.name,
    command: process.execPath,
    args: [SERVER_ENTRY],
    env: productionAppEnv(port, options.authSecret ?? newAuthSecret(), options.env),
    cwd: REPO_ROOT,
    logFile,
  });
  recordProcess(runDir, server.pid);
  try {
    await waitForHttp(`${url}/api/health`, server, START_TIMEOUT_MS);
    const health = await fetch(`${url}/api/health`);
    if (health.status !== 200) throw new Error(`${options.name}: /api/health answered ${health.status}: ${await health.text()}`);
  } catch (error) {
    await server.stop(1_000);
    throw new Error(`${(error as Error).message}\n--- ${options.name} log ---\n${tail(logFile, 40)}`);
  }
  return {
    name: options.name,
    url,
    port,
    pid: server.pid,
    exited: exitOf(server.child),
    signal: (signal) => {
      try {
        process.kill(server.pid, signal);
      } catch {
        // Already gone.
      }
    },
    logTail: (lines = 30) => tail(logFile, lines),
    stop: () => server.stop(STOP_GRACE_MS),
    kill: async () => {
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      await server.stop(0);
    },
  };
}

/**
 * An instance as a container of `image` (its `serve` command) on the host's network, listening on
 * 127.0.0.1:port (podman); the same handle as a process instance. Its log is the `podman run`
 * output in the run folder.
 */
export async function startContainer(image: string, options: AppOptions): Promise<AppInstance> {
  const runDir = inject("reliabilityRunDir");
  const port = options.port ?? (await freePort());
  const name = `${options.name}-${port}-${Date.now()}`;
  const logFile = path.join(runDir, `${name}.log`);
  const env = { ...options.env, PORT: String(port), HOST: "127.0.0.1", NEXTAUTH_SECRET: options.authSecret ?? newAuthSecret() };
  const server = startProcess({
    name,
    command: "podman",
    args: [
      "run",
      "--rm",
      "--name",
      name,
      "--network",
      "host",
      ...Object.entries(env).flatMap(([key, value]) => (value === undefined || value === "" ? [] : ["-e", `${key}=${value}`])),
      image,
      "serve",
    ],
    env: process.env,
    cwd: REPO_ROOT,
    logFile,
  });
  recordProcess(runDir, server.pid);
  const podman = (...args: string[]) => spawnSync("podman", args, { stdio: "ignore" });
  const exited = exitOf(server.child);
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, server, START_TIMEOUT_MS);
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    pid: server.pid,
    logTail: (lines = 30) => tail(logFile, lines),
    stop: async () => {
      podman("stop", "-t", "15", name);
      await exited;
    },
    kill: async () => {
      podman("kill", "-s", "KILL", name);
      await exited;
    },
    signal: (signal) => podman("kill", "-s", signal, name),
    exited,
  };
}

/** Several instances of one deployment (same environment and NEXTAUTH_SECRET), started together. */
export function startApps(count: number, options: Omit<AppOptions, "port" | "authSecret">): Promise<AppInstance[]> {
  const authSecret = newAuthSecret();
  return Promise.all(
    Array.from({ length: count }, (_, index) => startApp({ ...options, name: `${options.name}-${index + 1}`, authSecret })),
  );
}

/** Stops them all; tolerates a list with holes (a failed start). */
export async function stopApps(apps: Array<AppInstance | undefined>): Promise<void> {
  await Promise.all(apps.map((app) => app?.stop()));
}

/** REDIS_URL of this run (the global setup refuses to start without it). */
export function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error("The reliability suite needs REDIS_URL");
  return url;
}

/** Registers, for every test of the calling file or suite, a printout of these apps' logs if it fails. */
export function printLogsOnFailure(apps: () => Array<AppInstance | undefined>): void {
  beforeEach((context) => {
    context.onTestFailed(() => {
      for (const app of apps()) if (app) console.log(`--- ${app.name} (pid ${app.pid}) log, last lines ---\n${app.logTail(40)}`);
    });
  });
}
