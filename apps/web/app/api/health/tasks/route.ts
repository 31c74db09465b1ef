// This instance's background tasks for owners (panel session); /api/health stays public and bare.
import { sessionFromRequest } from "~/server/auth.ts";
import { processRegistry } from "~/server/registry.ts";
import { tasksHealthResponse } from "~/server/tasks-health.ts";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return tasksHealthResponse(request, () => sessionFromRequest(request), processRegistry().scheduler);
}
