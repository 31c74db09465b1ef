// The server entry's direct path (production): the routes of the table marked `direct` served on
// Node's own request and response, without Next's routing or fetch conversions in between.
// Measured (npm run bench): Next's request path costs more than a help read itself, and the spec's
// routes need none of what it adds (pages, RSC, middleware). `next dev` keeps Next's path.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResult } from "@parley/core";
import { SECURITY_HEADERS } from "@parley/core/security-headers";
import { getAppContext } from "../context.ts";
import { type HttpRequest, requestId } from "./request.ts";
import { matchRoute, ROUTES, type Route, routeResult } from "./routes.ts";
import { writeResult } from "./write.ts";

const DIRECT_ROUTES: readonly Route[] = Object.values(ROUTES).filter((route: Route) => route.direct);

/**
 * Serves `req` when it is one of the direct routes and returns true; returns false (and touches
 * nothing) otherwise, for Next to serve. server.mjs has set the client-IP header from the socket.
 */
export function serveDirectRoute(req: IncomingMessage, res: ServerResponse, origin: string): boolean {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  const match = matchRoute(end === -1 ? url : url.slice(0, end), DIRECT_ROUTES);
  if (!match) return false;
  const request = fromNodeRequest(req, res, origin);
  const id = requestId(request);
  // The direct routes need no panel session (the key routes are served by Next).
  const noSession = { session: async () => null };
  getAppContext()
    .then((ctx) => routeResult(match.route, ctx, request, match.params, noSession))
    .catch((error: unknown) => errorResult(error)) // core answers its own errors; this is a failure around it
    // SECURITY_HEADERS: what next.config.ts adds to every response Next sends.
    .then((result) => writeResult(res, result, id, SECURITY_HEADERS))
    .catch(() => res.destroy()); // the client left while the answer was written
  return true;
}

/** Node's request as an HttpRequest; its signal aborts when the client leaves early (as in Next). */
function fromNodeRequest(req: IncomingMessage, res: ServerResponse, origin: string): HttpRequest {
  const method = req.method ?? "GET";
  // Made on first use: most routes never look at the signal, and a controller per request shows
  // in the profile of a help read.
  let disconnected: AbortController | undefined;
  let clientLeft = false;
  res.on("close", () => {
    if (res.writableFinished) return;
    clientLeft = true;
    disconnected?.abort();
  });
  return {
    method,
    url: new URL(req.url ?? "/", origin),
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: method === "GET" || method === "HEAD" ? null : req,
    get signal() {
      disconnected ??= new AbortController();
      if (clientLeft) disconnected.abort();
      return disconnected.signal;
    },
  };
}
