// The Playwright suite as shards side by side (`node e2e/run-shards.mjs [shards]`, CI's way): each
// shard has its own server, embedded database, port and fake LLM, so no shard sees another's
// agents, conversations or rate limits. The app is built once first; the servers then start from
// that build (E2E_PREBUILT). Much of a journey waits on the browser, the server and timers, so two
// shards on two cores take well under the time of one run. The spec files are split by the seconds
// each took in CI (shard-weights.json), the longest first onto the least loaded shard, so that the
// shards end together. The journeys that time real audio (SOLO_SPECS) start beside them, on a
// server of their own, and wait for the shards to end (E2E_START_AFTER). Output lines are prefixed.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { buildWithProgress } from "../scripts/build-progress.mjs";
import { splitByWeight } from "../scripts/split-by-weight.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const shards = Number(process.argv[2] ?? 2);
if (!Number.isInteger(shards) || shards < 1 || shards > 8) {
  console.error("Usage: node e2e/run-shards.mjs [shards: 1 to 8]");
  process.exit(2);
}
/** Ports of shard i: BASE_PORT + 10 i for the app, the next ones for its fake LLM and the email journeys' servers. */
/** Journeys that time real audio through speech recognition: never beside another shard (it misheard the question there). */
const SOLO_SPECS = ["voice.spec.ts"];
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read when the script starts, never by a turbo task.
const BASE_PORT = Number(process.env.E2E_PORT || 3100);

/** Playwright on `files` (none: all its config matches) with the ports of shard `index`, its lines prefixed by `label`. */
function playwright(index, label, files, extraEnv) {
  const port = BASE_PORT + 10 * (index - 1);
  const child = spawn(
    "npx",
    ["--no-install", "playwright", "test", "-c", "e2e/playwright.config.ts", ...files.map((file) => `e2e/${file}`)],
    {
      cwd: root,
      env: { ...env, E2E_PORT: String(port), E2E_PREBUILT: "1", E2E_SOLO_SPECS: SOLO_SPECS.join(","), ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
  }
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TURBO_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1" };
if (spawnSync("node", ["scripts/bundle-widget.mjs"], { cwd: root, stdio: "inherit", env }).status !== 0) process.exit(1);
if ((await buildWithProgress(root, { ...env, NODE_ENV: "production" })) !== 0) process.exit(1);

const specs = readdirSync(new URL(".", import.meta.url)).filter((name) => name.endsWith(".spec.ts") && !SOLO_SPECS.includes(name));
const weights = JSON.parse(readFileSync(new URL("./shard-weights.json", import.meta.url), "utf8"));
const groups = splitByWeight(specs, weights, shards).filter((group) => group.items.length > 0);
for (const [i, group] of groups.entries()) console.log(`shard ${i + 1}: ${group.items.length} spec files, about ${group.weight} s`);
const markerDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
const shardsDone = path.join(markerDir, "shards-done");
const soloRun = playwright(groups.length + 1, "solo", [], { E2E_SOLO: "only", E2E_START_AFTER: shardsDone });
const codes = await Promise.all(groups.map((group, i) => playwright(i + 1, `shard ${i + 1}`, group.items, { E2E_SOLO: "skip" })));
writeFileSync(shardsDone, "");
const soloCode = await soloRun;
rmSync(markerDir, { recursive: true, force: true });
const failed = [...codes.flatMap((code, i) => (code === 0 ? [] : [`shard ${i + 1}`])), ...(soloCode === 0 ? [] : ["the solo journeys"])];
console.log(failed.length ? `e2e: ${failed.join(", ")} failed` : `e2e: all ${groups.length} shards and the solo journeys passed`);
process.exit(failed.length ? 1 : 0);
