// The server entry's direct path, in development and production alike: the routes of the table
// marked `direct` served on Node's own request and response, without Next's routing or fetch
// conversions in between. They have no route file under app/, so every request for them takes
// this path. Measured on one production build, the same requests both ways in alternating rounds:
// through Next's route files the help reads reached 0.21 to 0.65 of this path's throughput (2.6 to
// 5.5 times its CPU per request) and knowledge turns 0.59 to 0.83; these routes need none of what
// Next adds (pages, RSC, the proxy, whose matcher leaves /api/ out anyway).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "@parley/core";
import { errorResult } from "@parley/core";
import { type HttpRequest, requestId } from "./request.ts";
import { matchRoute, ROUTES, type Route, routeResult } from "./routes.ts";
import { writeResult } from "./write.ts";

const DIRECT_ROUTES: readonly Route[] = Object.values(ROUTES).filter((route: Route) => route.direct);

export interface DirectPath {
  /** The app's public URL: the base of each request's URL. */
  origin: string;
  /** The app context the routes run on (getAppContext in the server). */
  context(): Promise<AppContext>;
}

/**
 * Serves `req` when it is one of the direct routes and returns true; returns false (and touches
 * nothing) otherwise, for Next to serve. server.mjs has set the client-IP header from the socket
 * and the security headers on `res`.
 */
export function serveDirectRoute(req: IncomingMessage, res: ServerResponse, { origin, context }: DirectPath): boolean {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  const match = matchRoute(end === -1 ? url : url.slice(0, end), DIRECT_ROUTES);
  if (!match) return false;
  const request = fromNodeRequest(req, res, origin);
  const id = requestId(request);
  // The direct routes need no panel session (the key routes are served by Next).
  const noSession = { session: async () => null };
  context()
    .then((ctx) => routeResult(match.route, ctx, request, match.params, noSession))
    .catch((error: unknown) => errorResult(error)) // core answers its own errors; this is a failure around it
    .then((result) => writeResult(res, result, id))
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
