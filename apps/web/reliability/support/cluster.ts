// The set-up of the files that race real app processes: a seeded throwaway PostgreSQL database,
// two app instances on it sharing Redis, warmed up; both stopped and the database dropped after
// the file. Call at the top level of a test file; `db` and `apps` are set by its beforeAll.
import { afterAll, beforeAll } from "vitest";
import { type AppInstance, printLogsOnFailure, sharedStoresEnv, startApps, stopApps } from "./apps.ts";
import { createAgent, createSeededDatabase, type ServerDatabase } from "./database.ts";
import { warmUp } from "./http.ts";

export interface TwoAppCluster {
  db: ServerDatabase;
  apps: AppInstance[];
}

/** `env` adds to the instances' environment (e.g. an explicit RATE_LIMIT_SCALE). */
export function setUpTwoAppCluster(name: string, env: Record<string, string> = {}): TwoAppCluster {
  const cluster: { db?: ServerDatabase; apps: AppInstance[] } = { apps: [] };
  beforeAll(async () => {
    const db = await createSeededDatabase();
    cluster.db = db;
    cluster.apps = await startApps(2, {
      name,
      env: { ...sharedStoresEnv(db.url, `parley-${name}`), ...env },
    });
    await warmUp(
      cluster.apps.map((app) => app.url),
      await createAgent(db, "warm-up"),
    );
  });
  printLogsOnFailure(() => cluster.apps);
  afterAll(async () => {
    await stopApps(cluster.apps);
    await cluster.db?.close();
  });
  return cluster as TwoAppCluster;
}
