// GET /api/health/tasks: this instance's background tasks, beside the public GET /api/health
// (health.ts), which stays as bare as it was.
import { AppError, errorResult, jsonResult, tasksHealth } from "@parley/core";
import { roleMayCall, type SessionAdmin } from "@parley/core/people";
import type { Scheduler } from "@parley/core/scheduler";
import { respond } from "./http/write.ts";

const NO_STORE = { "cache-control": "no-store" };

/**
 * Each task's interval, last run, outcome (with a short error code) and whether it is overdue.
 * Internals, so it takes the panel session of a role allowed `operations.read` (owners): 401
 * without a session, 403 for other roles; 503 when this process runs no scheduler.
 */
export async function tasksHealthResponse(
  request: Request,
  session: () => Promise<SessionAdmin | null>,
  scheduler: Pick<Scheduler, "name" | "status"> | undefined,
): Promise<Response> {
  try {
    const admin = await session();
    if (!admin) throw new AppError("UNAUTHORIZED");
    if (!roleMayCall(admin.role, "GET /api/health/tasks")) throw new AppError("FORBIDDEN");
    if (!scheduler) {
      const body = { status: "unavailable", error: "Background tasks are not running on this instance" };
      return respond(request, jsonResult(body, 503, NO_STORE));
    }
    return respond(request, jsonResult(await tasksHealth(scheduler), 200, NO_STORE));
  } catch (error) {
    return respond(request, errorResult(error, NO_STORE));
  }
}
