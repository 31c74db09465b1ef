// `npm run db:restore -- <file>`: replaces the embedded database by a backup of db:backup. Refuses
// while a process (the server) has the folder open; keeps the replaced folder beside it.
import { restoreDataFolder } from "../backup.ts";
import { dataDir } from "../client.ts";
import { dbEnv } from "../env.ts";
import { fileArgument, runCli } from "./run.ts";

await runCli(async () => {
  if (dbEnv().DATABASE_URL)
    throw new Error("db:restore restores the embedded database; with DATABASE_URL (PostgreSQL) use pg_restore or psql.");
  const file = fileArgument(process.argv[2]);
  if (!file) throw new Error("Usage: npm run db:restore -- <backup file>");
  const { replaced } = await restoreDataFolder(dataDir(), file);
  console.log(`Restored ${dataDir()} from ${file}.`);
  if (replaced) console.log(`The folder it replaced is kept at ${replaced}; delete it once you no longer need it.`);
});
