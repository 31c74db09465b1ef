import { defineConfig } from "vitest/config";

// The reliability suite (`npm run test:reliability`): the production build, started as
// real processes, against PostgreSQL (DATABASE_URL; a throwaway database per test file) and Redis
// (REDIS_URL); both are required. Files run one at a time: each starts its own app processes, and
// the races it measures must not compete with another file for the two cores.
// The build writes apps/web/.next, which other work in this tree shares: when others build in the
// same tree, hold a common lock around the run (`flock <lock file> npm run test:reliability`).
// Knobs: RELIABILITY_KEEP_LOGS=1 keeps the apps' logs (the run folder is printed);
// RELIABILITY_SKIP_BUILD=1 reuses the existing build while iterating on the tests only (never in
// CI); FUZZ_SEED=<seed> replays a failing fuzz run of bad-input.test.ts.
export default defineConfig({
  test: {
    include: ["apps/web/reliability/**/*.test.ts"],
    globalSetup: ["apps/web/reliability/global-setup.ts"],
    setupFiles: ["apps/web/reliability/support/fresh-limits.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    env: { NODE_ENV: "test", NEXT_TELEMETRY_DISABLED: "1", UPSTASH_DISABLE_TELEMETRY: "1" },
  },
});
