// `npm run bench`: Parley's production build against a bare node:http + pg baseline, on the same
// throwaway PostgreSQL database and the same requests, at 1k, 10k and 100k help articles.
// Writes bench/results/latest.json, latest.md and p99.svg; prints the table and the verdict
// against the targets of report.ts (printed, never asserted). See bench/README.md.
//
//   npm run bench                      full run (about 15 minutes)
//   npm run bench -- --quick           1k articles, 1 s a scenario, a 200-article import (CI: keeps the harness working)
//   npm run bench -- --baseline-only   the baseline alone (no build, no app)
//   npm run bench -- --sizes 100000 --scenarios search-words --concurrency 1 --cpu-prof
//                                      one measurement with a CPU profile of the app
//   npm run bench -- --scenarios voice the voice step alone (voice.ts; bench/voice.json)
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  appServerEnv,
  freePort,
  RssSampler,
  type ServerProcess,
  startProcess,
  tail,
  treeCpuMs,
  waitForHttp,
} from "@parley/testing/processes";
import { appProcessEnv } from "../scripts/app-process.mjs";
import { p99Chart } from "./chart.ts";
import {
  articleCounts,
  type BenchDatabase,
  createBenchDatabase,
  createEvalFixture,
  createFixture,
  type EvalFixture,
  loadArticles,
  readableArticleIds,
} from "./data.ts";
import { compareResponses } from "./equivalence.ts";
import { type ImportMeasurement, measureImport } from "./imports.ts";
import {
  type ExportMeasurement,
  INBOX_CONVERSATIONS,
  INBOX_MESSAGES_PER_CONVERSATION,
  inboxSessionCookie,
  loadInboxMessages,
  measureInboxExport,
} from "./inbox.ts";
import { type LoadResult, measure } from "./load.ts";
import { summarizeProfile } from "./profile-summary.ts";
import { type DetailedRow, formatVerdicts, markdownTable, toResultRow, verdicts, voiceTable } from "./report.ts";
import { INBOX_SCENARIOS, SCENARIOS, type ScenarioName, scenarioRequests } from "./scenarios.ts";
import { measureVoice, type VoiceMeasurement } from "./voice.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsDir = path.join(root, "bench", "results");
const defaultAppDir = path.join(root, "apps", "web");

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    /** The import step with chosen scenarios too (it runs anyway without --scenarios). */
    import: { type: "boolean", default: false },
    "baseline-only": { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    /** Another build of the app (e.g. a copy at another commit, built there): used as it is. */
    "app-dir": { type: "string" },
    "cpu-prof": { type: "boolean", default: false },
    duration: { type: "string" },
    sizes: { type: "string" },
    scenarios: { type: "string" },
    concurrency: { type: "string" },
    "database-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "redis-url": { type: "string", default: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
  },
});

const numbers = (text: string) => text.split(",").map((part) => Number(part.trim()));
const sizes = args.sizes ? numbers(args.sizes) : args.quick ? [1_000] : [1_000, 10_000, 100_000];
const seconds = args.duration ? Number(args.duration) : args.quick ? 1 : 10;
const warmupSeconds = args.quick ? 0.25 : Math.min(2, seconds / 5);
const concurrencies = args.concurrency ? numbers(args.concurrency) : [1, 16];
const chosen = args.scenarios?.split(",").map((name) => name.trim().replaceAll("-", " "));
/** The voice step (voice.ts): every run without --scenarios, or with `voice` among them. */
const voiceChosen = !chosen || chosen.includes("voice");
const scenarios: ScenarioName[] = chosen
  ? chosen
      .filter((name) => name !== "voice")
      .map((name) => {
        const scenario = SCENARIOS.find((known) => known === name);
        if (!scenario) {
          const known = [...SCENARIOS, "voice"].map((s) => s.replaceAll(" ", "-")).join(", ");
          throw new Error(`Unknown scenario "${name.replaceAll(" ", "-")}"; known: ${known}`);
        }
        return scenario;
      })
  : [...SCENARIOS];
if ([...sizes, ...concurrencies, seconds].some((value) => !Number.isFinite(value) || value <= 0)) {
  throw new Error("--sizes, --concurrency and --duration take positive numbers");
}
/** Every limit times a million: the bench measures speed, not the limiter's refusals. */
const RATE_LIMIT_SCALE = "1000000";
const startedAt = Date.now();
const appDir = args["app-dir"] ? path.resolve(args["app-dir"]) : defaultAppDir;
const READ_ARTICLES = 50;

function log(line: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

// ---------------------------------------------------------------------------------------------
// Clean-up, also on failure and Ctrl-C: stop what was started, drop the database.

const servers: ServerProcess[] = [];
let database: BenchDatabase | undefined;
let sampler: RssSampler | undefined;
let cleaning: Promise<void> | undefined;

/** Stops a server the run is done with before the end (the voice step's apps). */
async function stopAndForget(server: ServerProcess, graceMs?: number): Promise<void> {
  await server.stop(graceMs);
  const index = servers.indexOf(server);
  if (index >= 0) servers.splice(index, 1);
}

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    sampler?.stop();
    await Promise.all(servers.map((server) => server.stop(args["cpu-prof"] ? 20_000 : 5_000).catch(() => {})));
    if (database) {
      await database.drop().catch((error) => console.error(`could not drop ${database?.name}: ${error}`));
      log(`dropped database ${database.name}`);
    }
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function buildApp(): Promise<void> {
  log("building the app (turbo run build --filter=@parley/app)");
  const started = performance.now();
  // Next refuses to build while another build of the same folder runs: wait for it (a minute at most).
  for (let attempt = 1; ; attempt += 1) {
    const result = spawnSync("npx", ["--no-install", "turbo", "run", "build", "--filter=@parley/app", "--output-logs=errors-only"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", TURBO_TELEMETRY_DISABLED: "1" },
    });
    if (result.status === 0) break;
    const output = `${result.stdout}${result.stderr}`;
    if (attempt < 6 && output.includes("Another next build process is already running")) {
      log("another build of apps/web is running; waiting 10 s");
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      continue;
    }
    console.error(output);
    throw new Error(`the build failed (exit ${result.status})`);
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function startBaseline(databaseUrl: string): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const server = startProcess({
    name: "baseline",
    command: process.execPath,
    args: ["--import", "tsx", path.join(root, "bench", "baseline.ts")],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production" },
    cwd: root,
    logFile: path.join(resultsDir, "baseline.log"),
  });
  servers.push(server);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, server, 30_000);
  log(`baseline listening on ${url} (pid ${server.pid})`);
  return { url, pid: server.pid };
}

/** The app's session secret (the inbox scenarios mint a panel session with it). */
const appSecret = randomBytes(32).toString("hex");

/** An app process; `name` names its log (app.log), `env` adds settings (the voice step's engines). */
async function startApp(
  databaseUrl: string,
  redisUrl: string,
  name = "app",
  env: Record<string, string> = {},
): Promise<{ url: string; server: ServerProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profileDir = path.join(resultsDir, "profiles");
  if (args["cpu-prof"]) mkdirSync(profileDir, { recursive: true });
  const server = startProcess({
    name,
    command: process.execPath,
    args: [...(args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), path.join(appDir, "server.mjs")],
    env: appServerEnv(port, appSecret, {
      // As `npm start` runs it (scripts/start.mjs): the heap capped, the allocator settings.
      ...appProcessEnv({ DATABASE_URL: databaseUrl }),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // The explicit bench setting (apps/web/src/env.ts): limits are never raised otherwise.
      RATE_LIMIT_SCALE,
      ...env,
    }),
    cwd: root,
    logFile: path.join(resultsDir, `${name}.log`),
  });
  servers.push(server);
  await waitForHttp(`${url}/api/health`, server, 60_000);
  log(`${name} listening on ${url} (pid ${server.pid})`);
  return { url, server };
}

// The app runs from apps/web/.next; another `next build` of the same folder (a developer, a test
// run) replaces it under the running server and breaks or changes what is measured.
const buildIdFile = path.join(appDir, ".next", "BUILD_ID");
function buildId(): string {
  try {
    return readFileSync(buildIdFile, "utf8").trim();
  } catch {
    return "(missing)";
  }
}

/** Waits until no other query runs on the bench database (requests abandoned by a finished run). */
async function waitForQuietDatabase(db: BenchDatabase["db"]): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [row] = await db.query<{ active: number }>(
      `SELECT count(*)::int AS active FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if ((row?.active ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log("warning: queries still running on the bench database after 120 s");
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

function progress(label: string, result: LoadResult): string {
  const errors = result.errors > 0 ? `, ${result.errors} errors ${JSON.stringify(result.statuses)}` : "";
  return `${label} ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, CPU ${result.cpuMsPerRequest.toFixed(3)} ms/req${errors}`;
}

async function main(): Promise<void> {
  const baselineOnly = args["baseline-only"];
  mkdirSync(resultsDir, { recursive: true });
  const loadAtStart = load();
  log(
    `sizes ${sizes.join(", ")}; scenarios ${scenarios.join(", ")}; concurrency ${concurrencies.join(", ")}; ${seconds} s each (+${warmupSeconds} s warm-up)`,
  );
  if (!(await reachable(args["database-url"]))) throw new Error(`PostgreSQL is not reachable at ${args["database-url"]}`);
  if (!baselineOnly && !(await reachable(args["redis-url"]))) throw new Error(`Redis is not reachable at ${args["redis-url"]}`);
  if (appDir !== defaultAppDir) log(`using the existing build in ${appDir}`);
  else if (!baselineOnly && !args["skip-build"]) await buildApp();

  database = await createBenchDatabase(args["database-url"]);
  log(`created and migrated database ${database.name}`);
  const fixture = await createFixture(database.db);
  // The eval's corpus once, before any size: its agent sees only those 170 articles.
  let evalAgent: EvalFixture | undefined;
  if (scenarios.includes("eval turns")) {
    evalAgent = await createEvalFixture(database.db);
    log(`loaded the eval corpus for agent ${evalAgent.agentId}`);
  }

  const baselineServer = await startBaseline(database.url);
  const baselineUrl = baselineServer.url;
  let appPid = 0;
  let appUrl: string | undefined;
  const expectedBuild = buildId();
  const disturbed: string[] = [];
  if (!baselineOnly) {
    const app = await startApp(database.url, args["redis-url"]);
    appUrl = app.url;
    appPid = app.server.pid;
    sampler = new RssSampler(app.server.pid);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    log(`app process tree: ${sampler.processCount()} process(es), ${sampler.peakMb().toFixed(0)} MB resident after start`);
  }

  // The inbox once, before any size (its messages do not change with the articles): a million, or
  // a tenth of that in a quick run (which only keeps the harness working; no verdict at that size).
  const inboxConversations = args.quick ? INBOX_CONVERSATIONS / 10 : INBOX_CONVERSATIONS;
  const inboxMessages = inboxConversations * INBOX_MESSAGES_PER_CONVERSATION;
  let sessionCookie: string | undefined;
  let inboxExport: ExportMeasurement | undefined;
  if (scenarios.some((scenario) => INBOX_SCENARIOS.includes(scenario))) {
    log(`loading the inbox: ${inboxMessages.toLocaleString("en-US")} messages`);
    await loadInboxMessages(database.db, fixture.agentId, (line) => log(line), inboxConversations);
    sessionCookie = await inboxSessionCookie(database.db, appSecret);
    if (appUrl && sampler) {
      inboxExport = await measureInboxExport(appUrl, sessionCookie, sampler, inboxConversations);
      log(
        `inbox export: ${inboxExport.rows} rows in ${inboxExport.seconds.toFixed(1)} s, RSS ${inboxExport.rssBeforeMb.toFixed(0)} MB, ${inboxExport.rssQuarterMb.toFixed(0)} MB at a quarter, peak ${inboxExport.rssPeakMb.toFixed(0)} MB`,
      );
    }
  }

  // The import step: a zip of Markdown articles imported by the app's worker (200 in a quick run,
  // which only keeps the step working, 10k in a full one; a run of chosen scenarios skips it
  // unless --import asks for it).
  let imported: ImportMeasurement | undefined;
  if (appUrl && sampler && (!args.scenarios || args.import)) {
    const count = args.quick ? 200 : 10_000;
    log(`importing ${count.toLocaleString("en-US")} Markdown articles of ~100 KB from a zip, then knowledge turns`);
    imported = await measureImport(
      appUrl,
      sessionCookie ?? (await inboxSessionCookie(database.db, appSecret)),
      database.db,
      sampler,
      count,
    );
    log(
      `import: ${imported.created} created, ${imported.failed} failed (${imported.status}) from a ${imported.zipMegabytes.toFixed(1)} MB zip in ${imported.seconds.toFixed(1)} s, RSS ${imported.rssBeforeMb.toFixed(0)} MB before, peak ${imported.rssPeakMb.toFixed(0)} MB; ${imported.turns} turns after (${imported.turnErrors} not 200), peak ${imported.rssAfterTurnsMb.toFixed(0)} MB`,
    );
  }

  // The voice step: sessions over parley.v1 voice on app processes of its own, one per engine setup.
  let voice: VoiceMeasurement | undefined;
  if (appUrl && voiceChosen) {
    log(
      `voice: the demo agent over parley.v1 voice, ${args.quick ? "1 and 2 sessions, one turn each" : "1, 2, 4... sessions until the p99 misses"}`,
    );
    voice = await measureVoice({
      db: database.db,
      quick: args.quick,
      log,
      startApp: async (name, env) => {
        const app = await startApp(database!.url, args["redis-url"], name, env);
        return { ...app, server: { ...app.server, stop: (graceMs) => stopAndForget(app.server, graceMs) } };
      },
    });
  }

  const rows: DetailedRow[] = [];
  const mismatches: string[] = [];
  let loaded = 0;
  // Articles are loaded only for the HTTP scenarios (a run of `--scenarios voice` has none).
  for (const size of scenarios.length > 0 ? [...sizes].sort((a, b) => a - b) : []) {
    log(`loading ${size.toLocaleString("en-US")} articles`);
    await loadArticles(database.db, loaded, size, (line) => log(`  ${line}`));
    loaded = Math.max(loaded, size);
    const counts = await articleCounts(database.db, fixture.agentId);
    log(`  ${counts.total} articles, ${counts.visible} visible to the bench agent; load average ${load()}`);
    const input = {
      ...fixture,
      evalAgent,
      sessionCookie,
      articleIds: await readableArticleIds(database.db, fixture.agentId, READ_ARTICLES),
    };

    const compared = scenarios.filter((scenario) => !INBOX_SCENARIOS.includes(scenario));
    if (appUrl && compared.length > 0) {
      const found = await compareResponses(appUrl, baselineUrl, compared, input);
      for (const line of found) log(`  equivalence: ${line}`);
      mismatches.push(...found.map((line) => `${size} articles: ${line}`));
    }

    for (const scenario of scenarios) {
      const requests = scenarioRequests(scenario, input);
      for (const connections of concurrencies) {
        const options = { connections, seconds, warmupSeconds };
        const appCpu = () => treeCpuMs(appPid);
        const baselineCpu = () => treeCpuMs(baselineServer.pid);
        const label = `${scenario}, ${size} articles, c=${connections}:`;
        let app: LoadResult | undefined;
        let rssMb = 0;
        if (appUrl && sampler) {
          sampler.resetPeak();
          app = await measure(appUrl, requests, { ...options, cpuMs: appCpu });
          rssMb = sampler.peakMb();
          log(progress(`app      ${label}`, app));
          if (buildId() !== expectedBuild) {
            disturbed.push(`${scenario}, ${size} articles, c=${connections}`);
            log(`warning: apps/web/.next changed during this measurement (another build); rerun for clean figures`);
          }
          await waitForQuietDatabase(database.db);
        }
        // The baseline serves no panel: the inbox scenarios measure the app alone.
        const baseline = INBOX_SCENARIOS.includes(scenario)
          ? { requests: 0, rps: 0, p50Ms: 0, p99Ms: 0, errors: 0, statuses: {}, cpuMsPerRequest: 0 }
          : await measure(baselineUrl, requests, { ...options, cpuMs: baselineCpu });
        if (!INBOX_SCENARIOS.includes(scenario)) log(progress(`baseline ${label}`, baseline));
        await waitForQuietDatabase(database.db);
        rows.push({
          scenario,
          articles: size,
          concurrency: connections,
          rps: app?.rps ?? 0,
          p50_ms: app?.p50Ms ?? 0,
          p99_ms: app?.p99Ms ?? 0,
          errors: app?.errors ?? 0,
          baseline_rps: baseline.rps,
          ratio: app && baseline.rps > 0 ? app.rps / baseline.rps : null,
          rss_mb: rssMb,
          baseline_p50_ms: baseline.p50Ms,
          baseline_p99_ms: baseline.p99Ms,
          baseline_errors: baseline.errors,
          cpu_ms: app?.cpuMsPerRequest ?? 0,
          baseline_cpu_ms: baseline.cpuMsPerRequest,
          statuses: app && app.errors > 0 ? app.statuses : undefined,
        });
      }
    }
  }

  const table = markdownTable(rows);
  console.log(`\n${table}\n`);
  const voiceText = voice ? voiceTable(voice) : undefined;
  if (voiceText) console.log(`Voice:\n${voiceText}\n`);
  if (baselineOnly) {
    log("baseline only: results not written");
    return;
  }
  const peakRss = sampler?.overallPeakMb() ?? 0;
  const verdictText = formatVerdicts(verdicts(rows, peakRss, inboxExport, inboxMessages, imported, voice));
  console.log(`Targets (informative, not asserted):\n${verdictText}\n`);

  writeFileSync(path.join(resultsDir, "latest.json"), `${JSON.stringify(rows.map(toResultRow), null, 2)}\n`);
  if (voice) writeFileSync(path.join(resultsDir, "voice.json"), `${JSON.stringify(voice, null, 2)}\n`);
  const baselineErrors = rows.filter((row) => row.baseline_errors > 0);
  const markdown = [
    `# Parley benchmark, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `Sizes ${sizes.join(", ")} articles; ${seconds} s per measurement after a ${warmupSeconds} s warm-up; autocannon; ratio = app req/s / baseline req/s; RSS = peak of the app's process tree during the measurement. Overall app peak RSS: ${peakRss.toFixed(0)} MB. Load average (1, 5, 15 min) at start ${loadAtStart}, at end ${load()} on ${cpus().length} CPUs.`,
    "",
    ...(disturbed.length > 0
      ? [`**Warning:** apps/web/.next was rebuilt by another process during: ${disturbed.join("; ")}. Those figures are not clean.`, ""]
      : []),
    table,
    "",
    ...(voiceText ? ["## Voice", "", voiceText, ""] : []),
    "## Targets (informative, not asserted)",
    "",
    "```",
    verdictText,
    "```",
    "",
    "## Equivalence of app and baseline responses",
    "",
    mismatches.length === 0 ? "Same results (ids and order) for every compared request." : mismatches.map((line) => `- ${line}`).join("\n"),
    ...(baselineErrors.length > 0
      ? [
          "",
          "## Baseline errors",
          "",
          ...baselineErrors.map((row) => `- ${row.scenario} ${row.articles}/c${row.concurrency}: ${row.baseline_errors}`),
        ]
      : []),
    "",
  ].join("\n");
  writeFileSync(path.join(resultsDir, "latest.md"), markdown);
  writeFileSync(path.join(resultsDir, "p99.svg"), await p99Chart(rows));
  log(`wrote bench/results/latest.json, latest.md${voice ? ", voice.json" : ""} and p99.svg`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  for (const server of servers) {
    const lines = tail(server.logFile, 15);
    if (lines) console.error(`--- last lines of ${server.name}'s log:\n${lines}`);
  }
} finally {
  await cleanUp();
}
if (args["cpu-prof"]) {
  const profileDir = path.join(resultsDir, "profiles");
  const profiles = readdirSync(profileDir).filter(
    (name) => name.endsWith(".cpuprofile") && statSync(path.join(profileDir, name)).mtimeMs >= startedAt,
  );
  if (profiles.length === 0) console.log("no CPU profile was written (did the app exit cleanly?)");
  for (const file of profiles) {
    console.log(`\nCPU profile ${path.join("bench/results/profiles", file)}:\n${summarizeProfile(path.join(profileDir, file))}`);
  }
}
process.exit(exitCode);
