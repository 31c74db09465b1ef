import { databaseIsHealthy } from "@parley/core";
import type { Database } from "@parley/db";
import { json } from "./rest.ts";

/** GET /api/health: 200 {"status":"ok"} when the database answers, 503 otherwise. */
export async function healthResponse(getDb: () => Promise<Database>): Promise<Response> {
  const healthy = await databaseIsHealthy(getDb);
  return healthy
    ? json({ status: "ok" }, 200, { "cache-control": "no-store" })
    : json({ status: "unavailable", error: "Database unavailable" }, 503, { "cache-control": "no-store" });
}
