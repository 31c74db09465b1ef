// Generates the Prisma client (packages/db/src/generated/prisma) after `npm install`.
// `prisma generate` does not need Prisma's native schema engine, but the CLI tries to download it
// first. Where that download is impossible (an offline or firewalled machine), retry with
// PRISMA_SCHEMA_ENGINE_BINARY pointing at an existing file, which skips the download; machines that
// can fetch the engine keep the normal path.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const prisma = ["prisma", "generate"];

function generate(env) {
  return spawnSync("npx", ["--no-install", ...prisma], { cwd: root, env, encoding: "utf8" });
}

let result = generate(process.env);
if (result.status !== 0 && /binaries\.prisma\.sh|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|fetch failed/.test(`${result.stderr}${result.stdout}`)) {
  console.log("prisma generate: engine download unavailable, generating without it");
  result = generate({ ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
}
process.stdout.write(result.stdout ?? "");
if (result.status !== 0) {
  process.stderr.write(result.stderr ?? "");
  process.exit(result.status ?? 1);
}
