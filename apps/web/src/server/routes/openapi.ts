// GET /api/openapi.json: the OpenAPI 3.1 document of the public routes, built in core from the
// handlers' own zod schemas, with this deployment's APP_URL as its server. Public and cacheable;
// any origin may read it (API tools and code generators fetch it from elsewhere).
import { jsonResult } from "@parley/core";
import { buildOpenApiDocument } from "@parley/core/openapi";
import { respond } from "../http/write.ts";

export const OPENAPI_PATH = "/api/openapi.json";

const HEADERS = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" };

export async function openApiRoute(request: Request, appUrl: string): Promise<Response> {
  return respond(request, jsonResult(buildOpenApiDocument({ appUrl }), 200, HEADERS));
}
