// Start-up preparation for `npm start` / `npm run dev`: validate the environment, apply pending
// migrations, and seed the demo data on first run (an empty database) only, so later starts never
// overwrite what admins changed. `npm run db:seed` re-seeds on demand.
import { seed } from "@parley/core/demo";
import { getDb, migrate } from "@parley/db";
import { runCli } from "@parley/db/cli";
import { cliEnv } from "../env.ts";
import { publicUrl } from "../site.ts";

await runCli(async () => {
  const config = cliEnv();
  const db = await getDb();
  const applied = await migrate(db);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
  const workspaces = await db.prisma.workspace.count();
  if (workspaces === 0) {
    const result = await seed(db, {
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
      appOrigin: new URL(publicUrl(config)).origin,
    });
    console.log("Seeded the demo data (agents demo, demo-disabled, demo-nokey, demo-inactive, demo-quota, demo-tokens).");
    if (result.generatedPassword) {
      console.log(`Admin login: ${config.ADMIN_EMAIL} / ${result.generatedPassword}  (shown once; set ADMIN_PASSWORD to choose one)`);
    } else {
      console.log(`Admin login: ${config.ADMIN_EMAIL} / the ADMIN_PASSWORD you set`);
    }
  } else {
    console.log(`Admin login: ${config.ADMIN_EMAIL} (password as printed on first start, or ADMIN_PASSWORD)`);
  }
});
