// `npm run db:seed`: writes the demo data (@parley/core/demo) to the configured database, idempotently.
// A generated admin password is printed here once; it is stored only as a hash.
// With the embedded database it refuses, naming the owner, while a server has the folder open.
import { seed } from "@parley/core/demo";
import { getDb } from "@parley/db";
import { runCli } from "@parley/db/cli";
import { cliEnv } from "../env.ts";
import { publicUrl } from "../site.ts";

await runCli(async () => {
  const config = cliEnv();
  const { ADMIN_EMAIL, ADMIN_PASSWORD, DATABASE_URL } = config;
  const db = await getDb();
  const result = await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, appOrigin: new URL(publicUrl(config)).origin });
  console.log(`Seeded the demo data into the ${DATABASE_URL ? "PostgreSQL database" : "embedded database"}.`);
  if (result.generatedPassword) {
    console.log(`Admin login: ${result.adminEmail} / ${result.generatedPassword}`);
    console.log("This password is shown only once; set ADMIN_PASSWORD and re-run the seed to change it.");
  } else if (ADMIN_PASSWORD) {
    console.log(`Admin login: ${result.adminEmail} (password set from ADMIN_PASSWORD)`);
  } else {
    console.log(`Admin login: ${result.adminEmail} (password unchanged)`);
  }
});
