import { widgetScriptRoute } from "~/server/routes/widget-js.ts";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return widgetScriptRoute(request);
}
