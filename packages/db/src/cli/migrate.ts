// `npm run db:migrate`: applies pending migrations to the configured database.
import { getDb } from "../client.ts";
import { dbEnv } from "../env.ts";
import { migrate } from "../migrate.ts";
import { runCli } from "./run.ts";

await runCli(async () => {
  const db = await getDb();
  const applied = await migrate(db);
  const where = dbEnv().DATABASE_URL ? "PostgreSQL" : "embedded database";
  console.log(
    applied.length ? `Applied ${applied.length} migration(s) to the ${where}: ${applied.join(", ")}` : `The ${where} is up to date.`,
  );
});
