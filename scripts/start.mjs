// `npm start`: build the app (turbo restores an unchanged build from its cache), prepare the
// database (migrate; seed the demo data on first run), then serve on PORT (default 3000).
// With DATABASE_URL unset the embedded database lives under DATA_DIR (default .data/).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { appProcessEnv } from "./app-process.mjs";
import { buildWithProgress } from "./build-progress.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  TURBO_TELEMETRY_DISABLED: "1",
  UPSTASH_DISABLE_TELEMETRY: "1",
};

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npx", ["--no-install", "tsx", "apps/web/src/check-env.ts"]);
run("node", ["scripts/bundle-widget.mjs"]);
const buildStatus = await buildWithProgress(root, { ...env, NODE_ENV: "production" });
if (buildStatus !== 0) process.exit(buildStatus);
run("npx", ["--no-install", "tsx", "apps/web/src/cli/setup.ts"]);
// The server's heap cap and allocator settings (app-process.mjs); NODE_OPTIONS of your own wins.
run("node", ["apps/web/server.mjs"], { NODE_ENV: "production", ...appProcessEnv(env) });
