import { defineConfig } from "@playwright/test";

// Journeys against the production build on the embedded database, in Debian's Chromium
// (never `playwright install`: this network cannot download browsers).
// E2E_PORT lets two checkouts run their suites side by side on one machine.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by Playwright when it starts, never by a turbo task.
export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
export const E2E_ADMIN = { email: "admin@example.com", password: "e2e-admin-password" };
/** The fake OpenAI-compatible server the app's LLM settings point at (e2e/fake-llm.ts): the next port. */
export const E2E_LLM_PORT = E2E_PORT + 1;
/** The suite's server allows this many times each widget connection limit (see its env below). */
export const E2E_WIDGET_CONNECTIONS_SCALE = 50;
export const E2E_LLM_URL = `http://127.0.0.1:${E2E_LLM_PORT}`;
const E2E_LLM_API_KEY = "sk-e2e-fake";

/**
 * run-shards.mjs runs some journeys apart from its shards: E2E_SOLO_SPECS names them (comma
 * separated), and E2E_SOLO says whether this run is those only or all but those.
 */
const { E2E_SOLO: solo, E2E_SOLO_SPECS: soloSpecs = "" } = process.env;
const soloMatch = soloSpecs
  .split(",")
  .filter(Boolean)
  .map((spec) => `**/${spec}`);

export default defineConfig({
  testDir: ".",
  testMatch: solo === "only" ? soloMatch : "**/*.spec.ts",
  testIgnore: solo === "skip" ? soloMatch : [],
  // Per port: Playwright empties its output folder at start, and shards run side by side (run-shards.mjs).
  outputDir: `./artifacts/results-${E2E_PORT}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by Playwright when it starts, never by a turbo task.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: "npx --no-install tsx e2e/fake-llm.ts",
      cwd: "..",
      url: `${E2E_LLM_URL}/fake/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { FAKE_LLM_PORT: String(E2E_LLM_PORT), FAKE_LLM_API_KEY: E2E_LLM_API_KEY },
    },
    {
      command: "node e2e/server.mjs",
      cwd: "..",
      url: `http://localhost:${E2E_PORT}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(E2E_PORT),
        APP_URL: `http://localhost:${E2E_PORT}`,
        DATA_DIR: `e2e/.data/${E2E_PORT}`,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        NEXTAUTH_URL: `http://localhost:${E2E_PORT}`,
        DATABASE_URL: "",
        REDIS_URL: "",
        // Agents set to the LLM engine answer through the fake server; every other agent is unaffected.
        LLM_BASE_URL: `${E2E_LLM_URL}/v1`,
        LLM_API_KEY: E2E_LLM_API_KEY,
        LLM_MODEL: "fake-e2e-model",
        // Every journey's browser connects from 127.0.0.1: widget sockets still closing from one journey
        // must not take the next one's slots (20 per IP and agent by default, here 1,000).
        // widget-connection.spec.ts proves the 4429 refusal on a server of its own with a low limit.
        WIDGET_CONNECTIONS_SCALE: String(E2E_WIDGET_CONNECTIONS_SCALE),
        // The browser's loopback connection is the proxy: a journey may name distinct visitors in
        // X-Forwarded-For (help-views.spec.ts); without the header the client is 127.0.0.1 as before.
        TRUST_PROXY: "true",
      },
    },
  ],
});
