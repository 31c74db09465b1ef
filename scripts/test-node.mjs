// Runs the unit and integration suite (or the vitest arguments given) under another Node.js major,
// so the versions package.json's engines names are each tested on a machine that has one Node:
//
//   npm run test:node -- 24                                   # the whole suite under Node 24
//   npm run test:node -- 22 apps/web/test/env.test.ts         # one file under Node 22
//
// The Node binary comes from the npm registry (the packages node-<platform>-<arch>@<major> ship it,
// so nothing else is downloaded), cached under node_modules/.cache/node-<major>. Test files that
// start processes with `node` or process.execPath get the same version (PATH is prefixed).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const [major, ...vitestArgs] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? "")) {
  console.error("Usage: npm run test:node -- <major> [vitest arguments]   e.g. npm run test:node -- 24");
  process.exit(2);
}

const cache = path.join(root, "node_modules", ".cache", `node-${major}`);
const binary = path.join(cache, "package", "bin", "node");
if (!existsSync(binary)) {
  const name = `node-${process.platform}-${process.arch}@${major}`;
  console.log(`test:node: fetching ${name} from the npm registry`);
  mkdirSync(cache, { recursive: true });
  const packed = spawnSync("npm", ["pack", name, "--pack-destination", cache, "--silent"], { cwd: cache, encoding: "utf8" });
  const tarball = readdirSync(cache).find((file) => file.endsWith(".tgz"));
  if (packed.status !== 0 || !tarball) {
    console.error(`test:node: npm pack ${name} failed:\n${packed.stderr}`);
    process.exit(1);
  }
  const unpacked = spawnSync("tar", ["-xzf", tarball], { cwd: cache, stdio: "inherit" });
  if (unpacked.status !== 0 || !existsSync(binary)) process.exit(1);
}

const version = spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim();
console.log(`test:node: vitest under Node ${version}`);
const result = spawnSync(binary, [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", ...vitestArgs], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ""}` },
});
process.exit(result.status ?? 1);
