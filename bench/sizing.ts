// Sizing figures for operators (`npm run bench:sizing`), measured on this machine against the
// production build (run `npm run build` first; nothing is built here):
// - requests per second of one instance pinned to one CPU (`taskset`), for knowledge turns on the
//   messages API and for help reads, and the CPU time per request of the instance and of
//   PostgreSQL (what the figures are per CPU when the machine is shared);
// - the instance's PostgreSQL connections under that load (pg_stat_activity, by application_name);
// - Redis memory per thousand widget visitors (each from its own address: hello, one question, its
//   answer, the connection left open) and per thousand help readers, as the keys the visitors
//   leave in a Redis database of the run's own (MEMORY USAGE of each) and as the server's
//   used_memory (which other users of the same Redis move too).
// A throwaway database `parley_sizing_<pid>` (1,000 generated articles, the bench agent) is dropped
// at the end, and the Redis database (--redis-db, empty at the start) emptied. Results print and
// go to bench/results/sizing.{md,json}.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Database } from "@parley/db";
import { appServerEnv, freePort, residentKb, startProcess, treeCpuMs, waitForHttp } from "@parley/testing/processes";
import IORedis from "ioredis";
import { WebSocket } from "ws";
import { appProcessEnv } from "../scripts/app-process.mjs";
import { createBenchDatabase, createFixture, loadArticles, readableArticleIds } from "./data.ts";
import { measure } from "./load.ts";
import { type ScenarioName, scenarioRequests } from "./scenarios.ts";

const { values: args } = parseArgs({
  options: {
    "database-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "redis-url": { type: "string", default: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
    "redis-db": { type: "string", default: "13" },
    cpu: { type: "string", default: "1" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    visitors: { type: "string", default: "1000" },
  },
});

const root = path.resolve(import.meta.dirname, "..");
const appDir = path.join(root, "apps", "web");
const resultsDir = path.join(root, "bench", "results");
const APPLICATION_NAME = "parley-sizing";
const PAGE_ORIGIN = "https://shop.example";
const SCENARIOS: ScenarioName[] = ["knowledge turn", "help collections", "article read"];
const duration = Number(args.duration);
const connections = Number(args.connections);
const visitors = Number(args.visitors);
const cpu = Number(args.cpu);
const log = (line: string) => console.log(`[sizing] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("application_name", name);
  return parsed.toString();
}

/** The Redis database of this run: its keys, their summed MEMORY USAGE, and the server's used_memory. */
async function redisState(redis: IORedis): Promise<{ keys: number; keyBytes: number; usedMemory: number; channels: number }> {
  let keyBytes = 0;
  let keys = 0;
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 1000);
    cursor = next;
    for (const key of batch) {
      keys += 1;
      keyBytes += Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")) || 0;
    }
  } while (cursor !== "0");
  const usedMemory = Number(/^used_memory:(\d+)/m.exec(await redis.info("memory"))?.[1] ?? 0);
  const channels = ((await redis.call("PUBSUB", "CHANNELS")) as string[]).length;
  return { keys, keyBytes, usedMemory, channels };
}

/** The instance's PostgreSQL backends (by application_name): their pids. */
async function backendPids(db: Database): Promise<number[]> {
  const rows = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND backend_type = 'client backend'",
    [APPLICATION_NAME],
  );
  return rows.map((row) => Number(row.pid));
}

interface Visitor {
  close(): void;
}

/** A widget visitor from `ip` (X-Forwarded-For, one trusted proxy): hello, one question, its answer; left open. */
async function visit(url: string, agentId: string, ip: string): Promise<Visitor> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`, ["parley.v1"], { origin: PAGE_ORIGIN, headers: { "x-forwarded-for": ip } });
  const frames: Array<{ type: string; clientMessageId?: string; error?: string }> = [];
  ws.on("message", (data) => frames.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const next = async (what: string, match: (frame: (typeof frames)[number]) => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!frames.some(match)) {
      const error = frames.find((frame) => frame.type === "error");
      if (error || Date.now() > deadline || ws.readyState === ws.CLOSED)
        throw new Error(`visitor ${ip}: no ${what}${error ? ` (${JSON.stringify(error)})` : ""}`);
      await sleep(10);
    }
  };
  ws.send(JSON.stringify({ type: "hello", agentId }));
  await next("ready", (frame) => frame.type === "ready");
  const clientMessageId = randomUUID();
  ws.send(JSON.stringify({ type: "message", text: "How do I reset my password?", clientMessageId }));
  await next("answer", (frame) => frame.type === "message" && frame.clientMessageId === clientMessageId);
  return { close: () => ws.close() };
}

/** Runs `task` for 0..count-1, `parallel` at a time. */
async function pool<T>(count: number, parallel: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

const ip = (block: number, index: number) => `10.${block}.${Math.floor(index / 250)}.${(index % 250) + 1}`;

async function main(): Promise<void> {
  if (!existsSync(path.join(appDir, ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const cpus = os.cpus().length;
  const loadAtStart = os.loadavg();
  if (cpu >= cpus) throw new Error(`--cpu ${cpu}: this machine has CPUs 0..${cpus - 1}`);
  const redisUrl = new URL(args["redis-url"]);
  redisUrl.pathname = `/${args["redis-db"]}`;
  const redis = new IORedis(redisUrl.toString(), { maxRetriesPerRequest: 1 });
  if ((await redis.dbsize()) > 0) throw new Error(`Redis database ${args["redis-db"]} is not empty: choose another with --redis-db`);

  const database = await createBenchDatabase(args["database-url"], `parley_sizing_${process.pid}`);
  let server: ReturnType<typeof startProcess> | undefined;
  const stopAll = async () => {
    await server?.stop(10_000);
    await database.drop();
    await redis.flushdb();
    redis.disconnect();
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const fixture = await createFixture(database.db);
    await loadArticles(database.db, 0, 1_000, (line) => log(line));
    await database.db.query(`UPDATE "Agent" SET "allowedOrigins" = $1 WHERE id = $2`, [[PAGE_ORIGIN], fixture.agentId]);
    const articleIds = await readableArticleIds(database.db, fixture.agentId, 50);

    // The instance on CPU `cpu` alone; this process (autocannon, the visitors) on the others.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const databaseUrl = withApplicationName(database.url, APPLICATION_NAME);
    mkdirSync(resultsDir, { recursive: true });
    server = startProcess({
      name: "sizing-app",
      command: "taskset",
      args: ["-c", String(cpu), process.execPath, path.join(appDir, "server.mjs")],
      env: appServerEnv(port, randomBytes(32).toString("hex"), {
        ...appProcessEnv({ DATABASE_URL: databaseUrl }),
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl.toString(),
        // The benchmark's setting (apps/web/src/env.ts): the limits must not cut the measured load.
        RATE_LIMIT_SCALE: "1000000",
        // The visitors name their addresses in X-Forwarded-For, as a balancer would.
        TRUST_PROXY: "1",
      }),
      cwd: root,
      logFile: path.join(resultsDir, "sizing-app.log"),
    });
    const others = Array.from({ length: cpus }, (_, index) => index).filter((index) => index !== cpu);
    if (others.length > 0) execFileSync("taskset", ["-a", "-p", "-c", others.join(","), String(process.pid)], { stdio: "ignore" });
    await waitForHttp(`${url}/api/health`, server, 90_000);
    const pid = server.pid;
    const restingRssMb = residentKb(pid) / 1024;
    log(`instance on CPU ${cpu} (pid ${pid}), ${restingRssMb.toFixed(0)} MB resident at rest; this process on CPU ${others.join(",")}`);

    const pgCpuMs = async (): Promise<Map<number, number>> =>
      new Map((await backendPids(database.db)).map((backend) => [backend, treeCpuMs(backend)]));
    const throughput = [];
    let mostConnections = 0;
    for (const scenario of SCENARIOS) {
      const requests = scenarioRequests(scenario, { ...fixture, articleIds });
      let sampling = true;
      let scenarioConnections = 0;
      const sampler = (async () => {
        while (sampling) {
          scenarioConnections = Math.max(scenarioConnections, (await backendPids(database.db)).length);
          await sleep(200);
        }
      })();
      const pgBefore = await pgCpuMs();
      const result = await measure(url, requests, { connections, seconds: duration, warmupSeconds: 2, cpuMs: () => treeCpuMs(pid) });
      const pgAfter = await pgCpuMs();
      sampling = false;
      await sampler;
      let pgSpent = 0;
      for (const [backend, ms] of pgAfter) pgSpent += ms - (pgBefore.get(backend) ?? 0);
      mostConnections = Math.max(mostConnections, scenarioConnections);
      const row = {
        scenario,
        rps: result.rps,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        errors: result.errors,
        appCpuMsPerRequest: result.cpuMsPerRequest,
        rpsPerFullCpu: result.cpuMsPerRequest > 0 ? 1000 / result.cpuMsPerRequest : 0,
        postgresCpuMsPerRequest: result.requests > 0 ? pgSpent / result.requests : 0,
        postgresConnections: scenarioConnections,
      };
      throughput.push(row);
      log(
        `${scenario}: ${row.rps.toFixed(0)} req/s on one CPU (p50 ${row.p50Ms.toFixed(1)} ms, p99 ${row.p99Ms.toFixed(1)} ms, ${row.errors} errors); ` +
          `instance ${row.appCpuMsPerRequest.toFixed(2)} CPU ms/request (${row.rpsPerFullCpu.toFixed(0)} req/s per whole CPU), ` +
          `PostgreSQL ${row.postgresCpuMsPerRequest.toFixed(2)} CPU ms/request, ${scenarioConnections} connections`,
      );
    }

    // Redis: widget visitors, each from its own address, kept connected; then help readers.
    const before = await redisState(redis);
    const started = performance.now();
    const open = await pool(visitors, 25, (index) => visit(url, fixture.agentId, ip(77, index)));
    const connected = await redisState(redis);
    const connectedRssMb = residentKb(pid) / 1024;
    log(
      `${visitors} widget visitors connected in ${((performance.now() - started) / 1000).toFixed(1)} s: ${connected.keys - before.keys} keys, ` +
        `${((connected.keyBytes - before.keyBytes) / 1024).toFixed(0)} KiB by MEMORY USAGE, used_memory ${((connected.usedMemory - before.usedMemory) / 1024).toFixed(0)} KiB more, ` +
        `${connected.channels - before.channels} pub/sub channels more; instance ${connectedRssMb.toFixed(0)} MB resident`,
    );
    for (const visitor of open) visitor.close();
    await sleep(2_000);
    const left = await redisState(redis);
    log(`after they closed: ${left.keys} keys, ${(left.keyBytes / 1024).toFixed(0)} KiB (rate-limit windows last until they expire)`);
    const readers = await pool(visitors, 25, async (index) => {
      const response = await fetch(`${url}/api/agent/${fixture.agentId}/help`, { headers: { "x-forwarded-for": ip(78, index) } });
      await response.arrayBuffer();
      return response.status;
    });
    if (readers.some((status) => status !== 200)) throw new Error(`help readers: statuses ${[...new Set(readers)].join(", ")}`);
    const afterReaders = await redisState(redis);
    log(
      `${visitors} help readers: ${afterReaders.keys - left.keys} keys, ${((afterReaders.keyBytes - left.keyBytes) / 1024).toFixed(0)} KiB more`,
    );

    const perThousand = (bytes: number) => (bytes * 1000) / visitors / 1024 / 1024;
    const results = {
      date: new Date().toISOString(),
      command: `npm run bench:sizing -- ${process.argv.slice(2).join(" ")}`.trim(),
      machine: {
        cpus,
        model: os.cpus()[0]?.model ?? "",
        loadAverageAtStart: loadAtStart.map((value) => Number(value.toFixed(2))),
        loadAverageAtEnd: os.loadavg().map((value) => Number(value.toFixed(2))),
        node: process.version,
      },
      settings: { duration, connections, visitors, cpu, articles: 1_000 },
      instance: { restingRssMb, connectedRssMb, poolMax: 10, postgresConnectionsMost: mostConnections },
      throughput,
      redis: {
        widgetVisitors: {
          keys: connected.keys - before.keys,
          keyMiBPerThousand: perThousand(connected.keyBytes - before.keyBytes),
          usedMemoryMiBPerThousand: perThousand(connected.usedMemory - before.usedMemory),
          channels: connected.channels - before.channels,
          keysAfterClose: left.keys,
          keyMiBPerThousandAfterClose: perThousand(left.keyBytes),
        },
        helpReaders: { keys: afterReaders.keys - left.keys, keyMiBPerThousand: perThousand(afterReaders.keyBytes - left.keyBytes) },
      },
    };
    writeFileSync(path.join(resultsDir, "sizing.json"), `${JSON.stringify(results, null, 2)}\n`);
    const markdown = [
      `Sizing, ${results.date} (\`${results.command}\`), ${cpus} × ${results.machine.model}, Node ${process.version}, load average ${results.machine.loadAverageAtStart[0]} at the start and ${results.machine.loadAverageAtEnd[0]} at the end (the machine is shared):`,
      "",
      "| load | req/s on one CPU | instance CPU ms/request | req/s per whole CPU | PostgreSQL CPU ms/request | PostgreSQL connections | p50 / p99 ms |",
      "|---|---|---|---|---|---|---|",
      ...throughput.map(
        (row) =>
          `| ${row.scenario} | ${row.rps.toFixed(0)} | ${row.appCpuMsPerRequest.toFixed(2)} | ${row.rpsPerFullCpu.toFixed(0)} | ${row.postgresCpuMsPerRequest.toFixed(2)} | ${row.postgresConnections} | ${row.p50Ms.toFixed(1)} / ${row.p99Ms.toFixed(1)} |`,
      ),
      "",
      `Redis per thousand widget visitors connected: ${results.redis.widgetVisitors.keyMiBPerThousand.toFixed(2)} MiB in keys (${results.redis.widgetVisitors.keys} keys for ${visitors}), ` +
        `${results.redis.widgetVisitors.usedMemoryMiBPerThousand.toFixed(2)} MiB of used_memory; ${results.redis.widgetVisitors.keyMiBPerThousandAfterClose.toFixed(2)} MiB left after they closed; ` +
        `per thousand help readers ${results.redis.helpReaders.keyMiBPerThousand.toFixed(2)} MiB. Instance resident ${restingRssMb.toFixed(0)} MB at rest, ${connectedRssMb.toFixed(0)} MB with ${visitors} widgets open.`,
    ].join("\n");
    writeFileSync(path.join(resultsDir, "sizing.md"), `${markdown}\n`);
    console.log(`\n${markdown}`);
  } finally {
    await stopAll();
  }
}

await main();
