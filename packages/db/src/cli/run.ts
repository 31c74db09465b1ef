// The frame of every db CLI: a failure prints its one-line message and exits 1; SIGINT and SIGTERM
// end the process through process.exit, so the data folder's lock is released on the way out.
import path from "node:path";
import { closeDb } from "../client.ts";
import { commandDirectory } from "../env.ts";

/** A file named on the command line, relative to where the user typed the command. */
export function fileArgument(value: string | undefined): string | undefined {
  return value === undefined ? undefined : path.resolve(commandDirectory(), value);
}

export async function runCli(main: () => Promise<void>): Promise<void> {
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
  try {
    await main();
    await closeDb();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    await closeDb().catch(() => {});
    process.exit(1);
  }
}
