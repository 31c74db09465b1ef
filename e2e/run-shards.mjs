// The Playwright suite as shards side by side (`node e2e/run-shards.mjs [shards]`, CI's way):
// each shard has its own server, embedded database, port and fake LLM, so no shard sees another's
// agents, conversations or rate limits. The app is built once first; the servers then start from
// that build (E2E_PREBUILT). Much of a journey waits on the browser, the server and timers, so two
// shards on two cores take well under the time of one run. The journeys that time real audio
// (SOLO_SPECS) run afterwards on their own. Output lines are prefixed by shard.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { buildWithProgress } from "../scripts/build-progress.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const shards = Number(process.argv[2] ?? 2);
if (!Number.isInteger(shards) || shards < 1 || shards > 8) {
  console.error("Usage: node e2e/run-shards.mjs [shards: 1 to 8]");
  process.exit(2);
}
/** Ports of shard i: BASE_PORT + 10 i for the app, the next one for its fake LLM. */
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read when the script starts, never by a turbo task.
const BASE_PORT = Number(process.env.E2E_PORT || 3100);

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TURBO_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1" };
if (spawnSync("node", ["scripts/bundle-widget.mjs"], { cwd: root, stdio: "inherit", env }).status !== 0) process.exit(1);
if ((await buildWithProgress(root, { ...env, NODE_ENV: "production" })) !== 0) process.exit(1);

/** Runs Playwright with `args` on shard `index`'s ports; resolves with its exit code. */
function playwright(index, args, solo) {
  const port = BASE_PORT + 10 * (index - 1);
  const child = spawn("npx", ["--no-install", "playwright", "test", "-c", "e2e/playwright.config.ts", ...args], {
    cwd: root,
    env: { ...env, E2E_PORT: String(port), E2E_PREBUILT: "1", E2E_SOLO: solo },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const label = solo === "only" ? "solo" : `shard ${index}`;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
  }
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => playwright(i + 1, [`--shard=${i + 1}/${shards}`], "skip")));
const failed = codes.flatMap((code, i) => (code === 0 ? [] : [`shard ${i + 1}`]));
if ((await playwright(1, [], "only")) !== 0) failed.push("the solo journeys");
console.log(failed.length ? `e2e: ${failed.join(", ")} failed` : `e2e: all ${shards} shards and the solo journeys passed`);
process.exit(failed.length ? 1 : 0);
