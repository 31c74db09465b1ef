// `npm run db:backup [-- <file>]`: a consistent backup of the embedded database, taken by the
// running server when one has the folder open, by this process otherwise. Default file:
// DATA_DIR/backups/parley-<UTC time>.tar.gz.
import path from "node:path";
import { backupDataFolder } from "../backup.ts";
import { dataDir } from "../client.ts";
import { dbEnv } from "../env.ts";
import { fileArgument, runCli } from "./run.ts";

await runCli(async () => {
  if (dbEnv().DATABASE_URL) throw new Error("db:backup backs up the embedded database; with DATABASE_URL (PostgreSQL) use pg_dump.");
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = fileArgument(process.argv[2]) ?? path.join(path.dirname(dataDir()), "backups", `parley-${stamp}.tar.gz`);
  const result = await backupDataFolder(dataDir(), file);
  const by = result.ownerPid ? ` (taken by the running process ${result.ownerPid})` : "";
  console.log(`Backed up ${dataDir()} to ${result.file}: ${(result.bytes / 1_048_576).toFixed(1)} MB${by}.`);
});
