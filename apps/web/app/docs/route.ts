import { publicAppUrl } from "~/server/context.ts";
import { docsPageRoute } from "~/server/routes/docs.ts";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return docsPageRoute(request, publicAppUrl());
}
