// The container image's entry point (Dockerfile): `node scripts/container.mjs <command>`.
//
//   serve     the production server (apps/web/server.mjs) with the process settings `npm start`
//             gives it (app-process.mjs). Applies no migration: with DATABASE_URL, run `migrate`
//             once per release (a one-shot container, see compose.yaml), not in every replica.
//   migrate   validates the environment, applies pending migrations and seeds the demo data into an
//             empty database (apps/web/src/cli/setup.ts, the step `npm start` runs before serving).
//   embedded  migrate, then serve: the single container with the embedded database in DATA_DIR,
//             which only one process may open, so there is only ever one replica.
//   backup [file], restore <file>
//             the embedded database's `npm run db:backup` / `db:restore` (packages/db/src/cli), e.g.
//             `docker compose exec embedded node scripts/container.mjs backup`.
//
// The server runs as a child with the signals passed on: SIGTERM (`docker stop`) reaches it, it
// drains (server.mjs) and this process exits with its code.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { appProcessEnv } from "./app-process.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// The image installs tsx outside the app's production dependencies (it is a development tool of
// the repository); TSX_LOADER names it. In a checkout, the repository's own.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the image's entry point, never by a turbo task.
const tsxLoader = process.env.TSX_LOADER ?? "tsx";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1", NODE_ENV: "production" };

/** Runs a TypeScript command-line tool of the repository; ends this process if it fails. */
function runTool(file, args = []) {
  const result = spawnSync(process.execPath, ["--import", tsxLoader, file, ...args], { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function migrate() {
  runTool("apps/web/src/cli/setup.ts");
}

function serve() {
  const child = spawn(process.execPath, ["apps/web/server.mjs"], { cwd: root, env: { ...env, ...appProcessEnv(env) }, stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const command = process.argv[2] ?? "serve";
if (command === "migrate") migrate();
else if (command === "serve") serve();
else if (command === "embedded") {
  migrate();
  serve();
} else if (command === "backup" || command === "restore") {
  runTool(`packages/db/src/cli/${command}.ts`, process.argv.slice(3));
} else {
  console.error(`Unknown command "${command}": use serve, migrate, embedded, backup or restore`);
  process.exit(2);
}
