// Any other path under /api/: the API's error body, 404 `Not found` (core's), as every API route
// answers it. Next's HTML 404 page is no API answer, and the proxy, which gives pages their
// Content-Security-Policy, leaves /api/ out, so that page went out without one.
import { AppError, errorResult } from "@parley/core";
import { respond } from "~/server/http/write.ts";

export const dynamic = "force-dynamic";

function notFound(request: Request): Response {
  return respond(request, errorResult(new AppError("NOT_FOUND"), { "cache-control": "no-store" }));
}

export { notFound as DELETE, notFound as GET, notFound as HEAD, notFound as OPTIONS, notFound as PATCH, notFound as POST, notFound as PUT };
