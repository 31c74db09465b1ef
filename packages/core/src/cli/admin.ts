// `npm run admin -- reset-password EMAIL`: for an operator who lost access. Prints a new
// generated password once and ends every session of the person. With the embedded database it
// refuses, naming the owner, while a server has the data folder open (as the db commands do).
import { closeDb, getDb } from "@parley/db";
import { runAdminCommand } from "./admin-commands.ts";

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));
try {
  const lines = await runAdminCommand(await getDb(), process.argv.slice(2), new Date());
  for (const line of lines) console.log(line);
  await closeDb();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  await closeDb().catch(() => {});
  process.exit(1);
}
