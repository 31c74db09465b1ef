import { publicAppUrl } from "~/server/context.ts";
import { openApiRoute } from "~/server/routes/openapi.ts";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return openApiRoute(request, publicAppUrl());
}
