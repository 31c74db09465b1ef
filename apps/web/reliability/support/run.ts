// A process run to its end (a CLI, or a server expected to refuse to start): its exit code and its
// output. Started in its own process group, recorded for the global teardown's safety net, and
// SIGKILLed if it outlives `timeoutMs`.
import { spawn } from "node:child_process";
import { inject } from "vitest";
import { REPO_ROOT } from "./paths.ts";
import { recordProcess } from "./registry.ts";

export interface Finished {
  /** The exit code; null when it was killed (it overran its time). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runToExit(command: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<Finished> {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  recordProcess(inject("reliabilityRunDir"), child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A db CLI as `npm run db:<name>` runs it (packages/db/src/cli/<name>.ts; the seed, which needs the
 * app's settings, is the app's: src/cli/seed.ts), with exactly this environment (plus PATH and HOME).
 */
export function runDbCli(name: string, args: string[], env: Record<string, string | undefined>): Promise<Finished> {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production" };
  const file = name === "seed" ? "apps/web/src/cli/seed.ts" : `packages/db/src/cli/${name}.ts`;
  return runToExit(process.execPath, ["--import", "tsx", file, ...args], { ...base, ...env });
}
