// A second server of the suite's build that sends email: the suite's own server has no SMTP_URL
// (so its widget never asks for an address and invitations are copied by hand), and the journeys
// about email start this one on their own port and data folder, with SMTP_URL pointing at an SMTP
// server in the test process that keeps every mail it receives.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { type ReceivedMail, startTestSmtp } from "@parley/testing/smtp";
import { E2E_ADMIN, E2E_PORT } from "./playwright.config.ts";

const ROOT = path.join(__dirname, "..");
const START_TIMEOUT_MS = 240_000;
/** How long a stopping server may take to exit before it is killed (the app's own bound is shorter). */
const STOP_TIMEOUT_MS = 15_000;

/** Resolves once no process of the group is left, or after `timeoutMs`. */
async function groupGone(groupId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-groupId, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type { ReceivedMail as Mail } from "@parley/testing/smtp";
export { decodedMail } from "@parley/testing/smtp";

export interface ServerWithMail {
  /** The server's origin, e.g. http://localhost:3103. */
  base: string;
  /** Every mail received so far, oldest first. */
  mails: ReceivedMail[];
  stop(): Promise<void>;
}

/**
 * Starts e2e/server.mjs (a fresh embedded database, setup, then the built app) on E2E_PORT +
 * `portOffset` with SMTP_URL and `env`, and waits for its health check. Each spec that uses it takes
 * its own offset (the suite's fake LLM has 1).
 */
export async function startServerWithMail(portOffset: number, env: Record<string, string> = {}): Promise<ServerWithMail> {
  const port = E2E_PORT + portOffset;
  const base = `http://localhost:${port}`;
  const dataDir = `e2e/.data/${port}`;
  const smtp = await startTestSmtp();
  const server: ChildProcess = spawn("node", ["e2e/server.mjs"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      E2E_PREBUILT: "1",
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: base,
      NEXTAUTH_URL: base,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DATABASE_URL: "",
      REDIS_URL: "",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ...env,
    },
  });
  const stop = async () => {
    if (server.pid) {
      // The whole group: e2e/server.mjs and the app it started. The app stops as in production (its
      // widget sockets closed with 1001): only what is left after the wait is killed.
      if (server.exitCode === null) process.kill(-server.pid, "SIGTERM");
      await groupGone(server.pid, STOP_TIMEOUT_MS);
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    rmSync(path.join(ROOT, dataDir), { recursive: true, force: true });
    await smtp.close();
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server on port ${port} exited with ${server.exitCode}`);
    }
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, mails: smtp.mails, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the server on port ${port} did not start within ${START_TIMEOUT_MS / 1000} s`);
}
