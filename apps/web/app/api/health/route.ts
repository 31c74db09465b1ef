import { getDb } from "@parley/db";
import { healthResponse } from "~/server/health.ts";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return healthResponse(request, getDb);
}
