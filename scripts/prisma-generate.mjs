// Generates the Prisma client (packages/db/src/generated/prisma) after `npm install`.
// `prisma generate` needs no native engine (the client runs on driver adapters and Parley migrates
// with its own runner, packages/db/src/migrate.ts), but the CLI downloads the schema engine first
// unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file; naming Node itself skips a download
// that offline machines cannot make and online ones would never use.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], {
  cwd: root,
  env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, ...process.env },
  encoding: "utf8",
});
process.stdout.write(result.stdout ?? "");
if (result.status !== 0) {
  process.stderr.write(result.stderr ?? "");
  process.exit(result.status ?? 1);
}
