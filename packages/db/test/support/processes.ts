// Processes for the data-folder tests: a holder of a folder (hold-folder.ts) and the db CLIs, run
// as `npm run db:*` runs them (tsx), on an embedded DATA_DIR whatever DATABASE_URL the suite has.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const HOLDER = fileURLToPath(new URL("./hold-folder.ts", import.meta.url));
const CLI_DIR = fileURLToPath(new URL("../../src/cli/", import.meta.url));

export interface Holder {
  child: ChildProcess;
  pid: number;
  /** Its first line: "ready" or "refused: <message>". */
  firstLine: string;
  exited: Promise<number | null>;
}

/** Starts hold-folder.ts on `folder` and waits for its first line. */
export async function startHolder(folder: string, mode: "open" | "lock" = "open"): Promise<Holder> {
  const child = spawn(process.execPath, ["--import", "tsx", HOLDER, folder, mode], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, DATABASE_URL: "" },
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const firstLine = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("\n")) resolve(output.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`hold-folder exited (${code}) before a line: ${output}`)));
  });
  return { child, pid: child.pid!, firstLine, exited };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs packages/db/src/cli/<name>.ts with DATA_DIR=`dataDirRoot` (the embedded database). */
export function runDbCli(name: string, dataDirRoot: string, args: string[] = []): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `${CLI_DIR}${name}.ts`, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDirRoot, NODE_ENV: "test" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
