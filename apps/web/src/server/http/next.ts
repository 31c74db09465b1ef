// Next's route files over the table of routes (routes.ts), for its routes not on the direct path:
// each route file is one line at app/<the route's path>/route.ts,
// `export const { GET, POST, ... } = routeFile(ROUTES.x)`, answering every method a route file can
// export (405 with Allow for those the route does not serve; Next would send an empty 405).
import { errorResult } from "@parley/core";
import { sessionFromRequest } from "../auth.ts";
import { getAppContext } from "../context.ts";
import { fromFetchRequest, requestId } from "./request.ts";
import { matchRoute, type Route, routeResult } from "./routes.ts";
import { toResponse } from "./write.ts";

const ROUTE_FILE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type RouteFileMethod = (typeof ROUTE_FILE_METHODS)[number];
type RouteFileHandler = (request: Request) => Promise<Response>;

export function routeFile(route: Route): Record<RouteFileMethod, RouteFileHandler> {
  const handler: RouteFileHandler = async (request) => {
    const httpRequest = fromFetchRequest(request);
    const id = requestId(httpRequest);
    const params = matchRoute(httpRequest.url.pathname, [route])?.params ?? [];
    const extras = { session: () => sessionFromRequest(request) };
    const result = await getAppContext()
      .then((ctx) => routeResult(route, ctx, httpRequest, params, extras))
      .catch((error: unknown) => errorResult(error));
    return toResponse(result, id);
  };
  return Object.fromEntries(ROUTE_FILE_METHODS.map((method) => [method, handler])) as Record<RouteFileMethod, RouteFileHandler>;
}
