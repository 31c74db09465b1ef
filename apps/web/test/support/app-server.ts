// A real HTTP server over the app's route handlers, for tests that need the network between a
// client and the app (the typed client, curl): node:http turns each request into a fetch Request,
// the table of routes (or, for the few routes outside it, the function the route file calls)
// answers as Next's route files do, and the Response goes back over the socket. Like
// server.mjs, it caps request bodies and sets the client-IP header from the socket. Every
// exchange is recorded (with Date.now(), which follows fake timers). `intercept` stands for a
// proxy between client and app: it may rewrite a response, or drop it after the app handled the
// request (the client then sees a network error).
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { AppContext } from "@parley/core";
import { ERRORS } from "@parley/core";
import type { AdminScope } from "@parley/core/people";
import { readSession } from "~/server/auth.ts";
import { limitRequestBody } from "~/server/body-limit.ts";
import { BodyLimitedRequest } from "~/server/body-limited-request.mjs";
import { CLIENT_IP_HEADER } from "~/server/http/request.ts";
import { matchRoute } from "~/server/http/routes.ts";
import { refuseBadPath } from "~/server/request-path.mjs";
import { docsAssetRoute, docsPageRoute } from "~/server/routes/docs.ts";
import { openApiRoute } from "~/server/routes/openapi.ts";
import { callRoute } from "./routes.ts";

export interface Exchange {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** Date.now() when the request arrived. */
  at: number;
  status?: number;
}

export type Intercept = (response: Response, exchange: Exchange) => Response | "drop" | Promise<Response | "drop">;

export interface AppServer {
  url: string;
  exchanges: Exchange[];
  /** Replaces the interceptor (undefined: pass everything through). */
  intercept(next: Intercept | undefined): void;
  close(): Promise<void>;
}

interface RouteInput {
  ctx: AppContext;
  request: Request;
  params: string[];
  session: () => Promise<AdminScope | null>;
  /** This server's own address, as APP_URL would be for the documents. */
  origin: string;
}

type Handler = (input: RouteInput) => Promise<Response>;

// Besides the table of routes (src/server/http/routes.ts), the routes of Next's own route files.
const ROUTES: Array<[string, RegExp, Handler]> = [
  ["GET", /^\/api\/openapi\.json$/, ({ request, origin }) => openApiRoute(request, origin)],
  ["GET", /^\/docs$/, ({ request, origin }) => docsPageRoute(request, origin)],
  ["GET", /^\/docs\/assets\/([^/]+)$/, ({ request, params: [file] }) => docsAssetRoute(request, { file: file! })],
];

function toRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  // As server.mjs does: the client IP from the socket, replacing any incoming copy.
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const disconnected = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) disconnected.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: disconnected.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", origin), init);
}

// No keep-alive: no idle sockets (and their timers) between a test's requests. A streamed body
// (server-sent events) is written piece by piece, as the servers do.
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body && headers["content-type"]?.startsWith("text/event-stream")) {
    res.writeHead(response.status, { ...headers, connection: "close" });
    for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      res.write(piece);
    }
    res.end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, connection: "close", "content-length": String(body.length) });
  res.end(body);
}

export async function startAppServer(ctx: AppContext, options: { sessionSecret?: string } = {}): Promise<AppServer> {
  const exchanges: Exchange[] = [];
  let interceptor: Intercept | undefined;
  let origin = "";

  // As server.mjs: a path that routes elsewhere than it reads (or is malformed) gets 400, and every
  // body is capped (413) before a route reads it.
  const server = createServer({ IncomingMessage: BodyLimitedRequest }, (req, res) => {
    if (refuseBadPath(req, res)) return;
    limitRequestBody(req, res, () => serve(req, res));
  });
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const request = toRequest(req, res, origin);
      const path = new URL(request.url).pathname;
      const exchange: Exchange = { method: request.method, path, idempotencyKey: request.headers.get("idempotency-key"), at: Date.now() };
      exchanges.push(exchange);
      const tableRoute = matchRoute(path);
      const route = ROUTES.find(([method, pattern]) => (method === request.method || method === "*") && pattern.test(path));
      const params = route ? (route[1].exec(path)?.slice(1) ?? []).map(decodeURIComponent) : [];
      const session = async () =>
        options.sessionSecret
          ? readSession(request, { secret: options.sessionSecret, secureCookie: false, db: ctx.db, now: ctx.now() })
          : null;
      let response = tableRoute
        ? await callRoute(tableRoute.route, ctx, request, tableRoute.params, await session())
        : route
          ? await route[2]({ ctx, request, params, session, origin })
          : Response.json({ error: ERRORS.NOT_FOUND.message }, { status: ERRORS.NOT_FOUND.status });
      exchange.status = response.status;
      if (interceptor) {
        const intercepted = await interceptor(response, exchange);
        if (intercepted === "drop") {
          req.socket.destroy();
          return;
        }
        response = intercepted;
        exchange.status = response.status;
      }
      await send(res, response);
    })().catch((error: unknown) => {
      res.writeHead(599, { "content-type": "text/plain" });
      res.end(`test server error: ${String(error)}`);
    });
  };
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    exchanges,
    intercept(next) {
      interceptor = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
