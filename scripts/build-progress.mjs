// The app's production build with its progress on screen: Next's own lines as they come, and a
// line every PROGRESS_SECONDS while Next is quiet (compiling prints nothing for minutes), so a first
// start never looks hung. turbo restores an unchanged build from its cache in a second or two.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const PROGRESS_SECONDS = 10;
const TURBO_BUILD = ["npx", "--no-install", "turbo", "run", "build", "--filter=@parley/app", "--output-logs=new-only", "--log-prefix=none"];

/**
 * Runs the build in `cwd` with `env`; resolves with its exit code. `command` and `progressSeconds`
 * are there for the test.
 */
export function buildWithProgress(cwd, env, { command = TURBO_BUILD, progressSeconds = PROGRESS_SECONDS, log = console.log } = {}) {
  const started = Date.now();
  const elapsed = () => Math.round((Date.now() - started) / 1000);
  log("Building the app (turbo run build): a first start takes a few minutes; later starts reuse the build.");
  const [program, ...args] = command;
  const child = spawn(program, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let lastLine = Date.now();
  const show = (line) => {
    if (!line.trim()) return;
    lastLine = Date.now();
    log(`  ${line}`);
  };
  createInterface({ input: child.stdout }).on("line", show);
  createInterface({ input: child.stderr }).on("line", show);
  const ticker = setInterval(() => {
    if (Date.now() - lastLine < progressSeconds * 1000) return;
    lastLine = Date.now();
    log(`  still building: ${elapsed()} s so far`);
  }, 1000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearInterval(ticker);
      if (code === 0) log(`Built in ${elapsed()} s.`);
      resolve(code ?? 1);
    });
  });
}
