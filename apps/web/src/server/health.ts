import { databaseIsHealthy, jsonResult } from "@parley/core";
import type { Database } from "@parley/db";
import { respond } from "./http/write.ts";

const NO_STORE = { "cache-control": "no-store" };

/**
 * GET /api/health: 200 {"status":"ok"} when the database answers, 503 otherwise. It opens the
 * database itself rather than through the app's context, so that it answers while that cannot.
 */
export async function healthResponse(request: Request, getDb: () => Promise<Database>): Promise<Response> {
  const healthy = await databaseIsHealthy(getDb);
  return respond(
    request,
    healthy
      ? jsonResult({ status: "ok" }, 200, NO_STORE)
      : jsonResult({ status: "unavailable", error: "Database unavailable" }, 503, NO_STORE),
  );
}
