import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Unit and integration tests of every package and the web app. Each integration test file opens
// its own throwaway database (@parley/testing/database): in-memory PGlite by default, or a fresh
// database on the server named by DATABASE_URL, copied from the run's migrated template, which the
// global setup makes once (packages/testing/src/global-setup.ts).
export default defineConfig({
  resolve: { alias: { "~": new URL("./apps/web/src", import.meta.url).pathname } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/web/test/**/*.test.ts", "eval/test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine (CI's),
    // while much of the suite waits on timers, sockets and child processes. At least two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ["./packages/testing/src/global-setup.ts"],
    setupFiles: ["./vitest.setup.ts"],
    env: { NODE_ENV: "test", NEXT_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1" },
  },
});
