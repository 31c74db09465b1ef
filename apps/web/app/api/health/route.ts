import { getDb } from "@parley/db";
import { healthResponse } from "~/server/health.ts";

export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return healthResponse(getDb);
}
