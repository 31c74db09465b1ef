import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that never open the server database or Redis: the embedded data folder's own tests (they
 * set their own folder, whatever DATABASE_URL says) and the slow ones that touch no database at
 * all. Against PostgreSQL and Redis (DATABASE_URL set, `.ci/run`'s second pass) they would only
 * run the same thing again, so that pass leaves them out.
 */
const SERVER_INDEPENDENT = [
  "packages/db/test/data-folder.test.ts",
  "packages/db/test/folder-lock.test.ts",
  "apps/web/test/seed-cli.test.ts",
  "packages/core/test/voice-pocketsphinx.test.ts",
  "packages/core/test/voice-flite.test.ts",
  "packages/core/test/boundaries.test.ts",
];
/**
 * Files that need modules of their own: they replace a module (vi.mock), or assert on a
 * process-wide cache that other files fill. Every other file shares its worker's modules with the
 * files before it (isolate: false), which saves each file the seconds of loading Prisma, PGlite
 * and the core again; each still opens its own database.
 */
const NEEDS_OWN_MODULES = [
  "apps/web/test/client.test.ts",
  "apps/web/test/methods.test.ts",
  "packages/web-sdk/test/voice.test.ts",
  "packages/core/test/help-search-budget.test.ts",
  "packages/core/test/help-search-newest.test.ts",
  "packages/core/test/knowledge-budget.test.ts",
];
const TEST_FILES = ["packages/*/test/**/*.test.ts", "apps/web/test/**/*.test.ts", "eval/test/**/*.test.ts"];
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by vitest when it starts, never by a turbo task.
const againstServer = Boolean(process.env.DATABASE_URL);
const EXCLUDED = [...configDefaults.exclude, ...(againstServer ? SERVER_INDEPENDENT : [])];

// Unit and integration tests of every package and the web app. Each integration test file opens
// its own throwaway database (@parley/testing/database): in-memory PGlite by default, or a fresh
// database on the server named by DATABASE_URL, copied from the run's migrated template, which the
// global setup makes once (packages/testing/src/global-setup.ts).
export default defineConfig({
  resolve: { alias: { "~": new URL("./apps/web/src", import.meta.url).pathname } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine (CI's),
    // while much of the suite waits on timers, sockets, audio played in real time and child
    // processes. At least three (on CI's two cores, 182 s instead of 230 s with two).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    globalSetup: ["./packages/testing/src/global-setup.ts"],
    setupFiles: ["./vitest.setup.ts"],
    env: { NODE_ENV: "test", NEXT_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1" },
    projects: [
      { extends: true, test: { name: "shared", include: TEST_FILES, exclude: [...EXCLUDED, ...NEEDS_OWN_MODULES], isolate: false } },
      { extends: true, test: { name: "own-modules", include: NEEDS_OWN_MODULES, exclude: EXCLUDED } },
    ],
  },
});
