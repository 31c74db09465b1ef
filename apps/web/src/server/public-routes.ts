// The public REST routes (messages and the three help routes) served straight from the Node
// server, without Next.js's routing in between: the same route functions the files under
// app/api/agent/** call, so each handler has one implementation whichever path serves it.
// Measured (npm run bench): Next's request path costs more than a help read itself, and the spec's
// routes need none of what it adds (pages, RSC, middleware). In production the instrumentation hook
// publishes servePublicRoute for server.mjs; `next dev` keeps Next's path (and hot reload).
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { AppContext } from "@parley/core";
import { describeError, ERRORS, errorDocsLink, logger } from "@parley/core";
import { SECURITY_HEADERS } from "@parley/core/security-headers";
import { getAppContext, publicAppUrl } from "./context.ts";
import { methodNotAllowed } from "./rest.ts";
import { helpArticleRoute, helpArticlesRoute, helpCollectionsRoute } from "./routes/help.ts";
import { messagesRoute } from "./routes/messages.ts";

type PublicHandler = (ctx: AppContext, request: Request, params: string[]) => Promise<Response>;

/** [method, path pattern, handler]; the pattern's groups are the (still encoded) path parameters. */
export const PUBLIC_ROUTES: ReadonlyArray<readonly [string, RegExp, PublicHandler]> = [
  ["POST", /^\/api\/agent\/([^/]+)\/messages$/, (ctx, request, [agentId]) => messagesRoute(ctx, request, { agentId: agentId! })],
  ["GET", /^\/api\/agent\/([^/]+)\/help$/, (ctx, request, [agentId]) => helpCollectionsRoute(ctx, request, { agentId: agentId! })],
  ["GET", /^\/api\/agent\/([^/]+)\/help\/articles$/, (ctx, request, [agentId]) => helpArticlesRoute(ctx, request, { agentId: agentId! })],
  [
    "GET",
    /^\/api\/agent\/([^/]+)\/help\/articles\/([^/]+)$/,
    (ctx, request, [agentId, itemId]) => helpArticleRoute(ctx, request, { agentId: agentId!, itemId: itemId! }),
  ],
];

/**
 * The route for a method and a path (without its query), with its decoded parameters. HEAD is
 * served as GET (Node leaves the body out); another method on a public path gets 405.
 */
export function matchPublicRoute(method: string, pathname: string): { handler: PublicHandler; params: string[] } | null {
  for (const [routeMethod, pattern, handler] of PUBLIC_ROUTES) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const params = match.slice(1).map(decodeURIComponent);
    if (method === routeMethod || (method === "HEAD" && routeMethod === "GET")) return { handler, params };
    const allow = routeMethod === "GET" ? ["GET", "HEAD"] : [routeMethod];
    return { handler: (_ctx, request) => methodNotAllowed(request, allow), params };
  }
  return null;
}

/**
 * Serves `req` when it is one of the public routes and returns true; returns false (and touches
 * nothing) otherwise, for Next to serve. server.mjs has set the client-IP header from the socket.
 */
export function servePublicRoute(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  const route = matchPublicRoute(req.method ?? "GET", end === -1 ? url : url.slice(0, end));
  if (!route) return false;
  // What next.config.ts adds to every response Next sends; kept by writeHead below.
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  void (async () => {
    const request = toFetchRequest(req, res, publicAppUrl());
    await sendFetchResponse(res, await route.handler(await getAppContext(), request, route.params));
  })().catch((error: unknown) => {
    // The route functions answer every error themselves; this is a failure around them.
    logger.error("public route failed", { error: describeError(error) });
    if (res.headersSent) return void res.destroy();
    res.writeHead(ERRORS.INTERNAL.status, { "content-type": "application/json; charset=utf-8", link: errorDocsLink("INTERNAL") });
    res.end(JSON.stringify({ error: ERRORS.INTERNAL.message }));
  });
  return true;
}

/** A fetch Request for a Node request; its signal aborts when the client leaves early (as in Next). */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const disconnected = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) disconnected.abort();
  });
  // Node's fetch needs `duplex` for a streamed body.
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: disconnected.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", origin), init);
}

/** Writes a fetch Response (status, headers, whole body) to a Node response. */
export async function sendFetchResponse(res: ServerResponse, response: Response, extraHeaders: Record<string, string> = {}): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, ...extraHeaders, "content-length": String(body.length) });
  res.end(body);
}
