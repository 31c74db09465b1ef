// Holds an embedded data folder in a process of its own, as a server does: argv[2] is the folder,
// argv[3] "open" (the database, under its lock) or "lock" (the lock only). Prints "ready" once it
// holds it, or "refused: <message>" and exits 1. Runs until its stdin closes (then exits 0) or a
// signal: SIGTERM exits through process.exit as the CLIs do; SIGKILL is a crash.
import { openDatabase } from "../../src/client.ts";
import { lockDataFolder } from "../../src/folder-lock.ts";

process.once("SIGTERM", () => process.exit(143));
const [folder, mode = "open"] = process.argv.slice(2);
if (!folder) throw new Error("usage: hold-folder.ts <folder> [open|lock]");
try {
  if (mode === "lock") await lockDataFolder(folder);
  else await openDatabase({ dataDir: folder });
  process.stdout.write("ready\n");
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} catch (error) {
  process.stdout.write(`refused: ${(error as Error).message}\n`);
  process.exit(1);
}
