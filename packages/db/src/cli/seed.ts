// `npm run db:seed`: writes the demo data (prisma/seed/demo.ts) to the configured database, idempotently.
// A generated admin password is printed here once; it is stored only as a hash.
// With the embedded database it refuses, naming the owner, while a server has the folder open.
import { getDb } from "../client.ts";
import { dbEnv, publicAppUrl } from "../env.ts";
import { seed } from "../seed.ts";
import { runCli } from "./run.ts";

await runCli(async () => {
  const { ADMIN_EMAIL, ADMIN_PASSWORD, DATABASE_URL } = dbEnv();
  const db = await getDb();
  const result = await seed(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, appOrigin: new URL(publicAppUrl()).origin });
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
