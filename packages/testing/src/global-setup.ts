// Vitest's global setup (vitest.config.ts): the run's migrated database template, made once before
// any test file starts and named to the test files' processes in TEMPLATE_VARIABLE.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { preparePgliteTemplate, preparePostgresTemplate, TEMPLATE_VARIABLE } from "./database-template.ts";

export default async function setup(): Promise<() => void> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (serverUrl) {
    // Kept on the server for later runs with the same migrations.
    process.env[TEMPLATE_VARIABLE] = await preparePostgresTemplate(serverUrl);
    return () => {};
  }
  const runDir = mkdtempSync(path.join(tmpdir(), "parley-test-"));
  process.env[TEMPLATE_VARIABLE] = await preparePgliteTemplate(runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
