// Starts the production app for the e2e suite on a fresh embedded database (DATA_DIR, one folder per
// port under e2e/.data), as `npm start` does. With E2E_PREBUILT=1 (run-shards.mjs, which builds once
// before starting its shards) the build step is left out: servers starting side by side must not
// write the same build folder while another one serves from it.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appProcessEnv } from "../scripts/app-process.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { DATA_DIR: dataDir = "e2e/.data", E2E_PREBUILT: prebuilt } = process.env;
rmSync(path.resolve(root, dataDir), { recursive: true, force: true });

if (prebuilt === "1") {
  const run = (command, args, extraEnv = {}) => {
    const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...extraEnv } });
    if (result.status !== 0) process.exit(result.status ?? 1);
  };
  run("npx", ["--no-install", "tsx", "apps/web/src/cli/setup.ts"]);
  run("node", ["apps/web/server.mjs"], { NODE_ENV: "production", ...appProcessEnv(process.env) });
} else {
  await import("../scripts/start.mjs");
}
