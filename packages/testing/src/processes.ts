// Child processes of the bench and the reliability suite (the app, the bench's baseline server):
// started in their own process group so they and anything they spawn are stopped together, by id;
// logs go to a file; memory is the resident set of the whole process tree, sampled from /proc.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/** A TCP port that was free a moment ago (the OS picked it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  logFile: string;
  /** SIGTERM to the process group, SIGKILL after `graceMs`; resolves when the leader exited. */
  stop(graceMs?: number): Promise<void>;
}

export function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  logFile: string;
}): ServerProcess {
  const log = openSync(options.logFile, "w");
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: ["ignore", log, log],
    // Its own process group: a Ctrl-C in the terminal reaches the runner only, which stops the
    // group itself (and nothing else).
    detached: true,
  });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`${options.name} did not start`);
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  return {
    name: options.name,
    pid,
    child,
    logFile: options.logFile,
    stop: async (graceMs = 5_000) => {
      signalGroup("SIGTERM");
      const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref());
      if ((await Promise.race([exited, timer])) === "timeout") {
        signalGroup("SIGKILL");
        await exited;
      }
      // Anything left in the group after the leader exited (workers it spawned).
      signalGroup("SIGKILL");
    },
  };
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Resolves once `url` answers (any HTTP status); rejects if the process exits or time runs out. */
export async function waitForHttp(url: string, server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(
        `${server.name} exited (${server.child.exitCode ?? server.child.signalCode}) before answering:\n${tail(server.logFile)}`,
      );
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${server.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${tail(server.logFile)}`);
}

function parentOf(pid: string): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/** `root` and all its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent === null) continue;
    const list = children.get(parent) ?? [];
    list.push(Number(entry));
    children.set(parent, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux in practice). */
const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, all threads) of `root` and its descendants so far, in ms. */
export function treeCpuMs(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // After "pid (comm) ": state ppid ... utime is field 14 and stime field 15 of the whole line.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** A process's resident memory in kB (0 once it is gone). */
export function residentKb(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples the summed resident set of a process tree every `intervalMs` (the tree itself is
 * re-read every second). `peakMb()` is the highest sum since the last `resetPeak()`.
 */
export class RssSampler {
  private pids: number[] = [];
  private peakKb = 0;
  private overallPeakKb = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.refreshTree();
    this.timers.push(
      setInterval(() => this.refreshTree(), 1_000),
      setInterval(() => this.sample(), intervalMs),
    );
    for (const timer of this.timers) timer.unref();
  }

  private refreshTree(): void {
    this.pids = processTree(this.root);
  }

  private sample(): void {
    let totalKb = 0;
    for (const pid of this.pids) totalKb += residentKb(pid);
    this.peakKb = Math.max(this.peakKb, totalKb);
    this.overallPeakKb = Math.max(this.overallPeakKb, totalKb);
  }

  resetPeak(): void {
    this.sample();
    this.peakKb = 0;
    this.sample();
  }

  peakMb(): number {
    this.sample();
    return this.peakKb / 1024;
  }

  overallPeakMb(): number {
    this.sample();
    return this.overallPeakKb / 1024;
  }

  /** Processes currently in the tree (for the log: does the app spawn workers?). */
  processCount(): number {
    return this.pids.length;
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
  }
}

/**
 * The environment of a production app process (apps/web/server.mjs) on 127.0.0.1:`port`, its own
 * URL as APP_URL, telemetry off; `extra` adds or overrides (database, Redis, limits...). The
 * process settings `npm start` gives the server (scripts/app-process.mjs: the heap cap, the
 * allocator) are the caller's to add in `extra`: a package imports nothing outside its folder.
 */
export function appServerEnv(
  port: number,
  authSecret: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const url = `http://127.0.0.1:${port}`;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: url,
    NEXTAUTH_URL: url,
    NEXTAUTH_SECRET: authSecret,
    NEXT_TELEMETRY_DISABLED: "1",
    UPSTASH_DISABLE_TELEMETRY: "1",
    ...extra,
  };
}
