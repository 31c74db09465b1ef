// The routes of Parley's HTTP API, one table that maps each of them: a route marked `direct` is
// served by the server entry's direct path (direct.ts, in development and production alike,
// without Next's routing) and has no file under app/; any other is served by its one-line route
// file at app/<path>/route.ts (next.ts: the routes that need Next's session cookies or its page
// headers). test/route-map.test.ts holds the table and app/ to that. Each route reads its inputs
// from the request and makes one core call; core answers with the status, headers and body.
import type { AppContext, HttpResult } from "@parley/core";
import { isSameOrigin, methodNotAllowedResult } from "@parley/core";
import { generateHttpApiKey, revokeHttpApiKey } from "@parley/core/agents";
import { sendMessage } from "@parley/core/conversations";
import { helpArticle, helpArticles, helpCollections, helpSitemap } from "@parley/core/help";
import { serveImage, uploadImageResult } from "@parley/core/images";
import type { AdminScope } from "@parley/core/people";
import { readCappedBody } from "./capped-body.ts";
import { readJsonBody } from "./json-body.ts";
import { bearerToken, type HttpRequest, requestClient, requestClientIp } from "./request.ts";

/** What a route may need beyond the request: the panel session (read only where a route asks). */
export interface RouteExtras {
  session(): Promise<AdminScope | null>;
}

export interface Route {
  /** The methods served; GET also serves HEAD. */
  methods: readonly string[];
  /** The path as app/'s folders spell it: `[name]` is a parameter (one segment). */
  path: string;
  /** The path as matched (from `path`); its groups are the (still encoded) path parameters. */
  pattern: RegExp;
  /** Served on the server entry's direct path (then no route file exists), else by app/<path>/route.ts. */
  direct: boolean;
  handle(ctx: AppContext, request: HttpRequest, params: string[], extras: RouteExtras): Promise<HttpResult>;
}

/** The pattern of a path written as app/'s folders spell it: each `[name]` one segment, the rest literal. */
export function pathPattern(path: string): RegExp {
  const segments = path
    .split("/")
    .map((segment) => (/^\[[^\]]+\]$/.test(segment) ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${segments.join("\\/")}$`);
}

function defineRoute(definition: Omit<Route, "pattern">): Route {
  return { ...definition, pattern: pathPattern(definition.path) };
}

export const ROUTES = {
  /** POST /api/agent/{agentId}/messages (spec 4.1) */
  messages: defineRoute({
    methods: ["POST"],
    path: "/api/agent/[agentId]/messages",
    direct: true,
    handle: (ctx, request, [agentId]) =>
      sendMessage(ctx, {
        agentId: agentId!,
        token: bearerToken(request.headers.get("authorization")),
        idempotencyKey: request.headers.get("idempotency-key"),
        accept: request.headers.get("accept"),
        readBody: () =>
          readJsonBody({
            contentType: request.headers.get("content-type"),
            contentLength: request.headers.get("content-length"),
            body: request.body,
          }),
        clientIp: requestClientIp(request, ctx.trustProxy),
        signal: request.signal,
      }),
  }),
  /** GET /api/agent/{agentId}/help (spec 4.2) */
  helpCollections: defineRoute({
    methods: ["GET"],
    path: "/api/agent/[agentId]/help",
    direct: true,
    handle: (ctx, request, [agentId]) => helpCollections(ctx, { agentId: agentId!, clientIp: requestClientIp(request, ctx.trustProxy) }),
  }),
  /** GET /api/agent/{agentId}/help/articles?source=&q= (spec 4.3) */
  helpArticles: defineRoute({
    methods: ["GET"],
    path: "/api/agent/[agentId]/help/articles",
    direct: true,
    handle: (ctx, request, [agentId]) =>
      helpArticles(ctx, { agentId: agentId!, clientIp: requestClientIp(request, ctx.trustProxy), query: request.url.searchParams }),
  }),
  /** GET /api/agent/{agentId}/help/articles/{itemId} (spec 4.4) */
  helpArticle: defineRoute({
    methods: ["GET"],
    path: "/api/agent/[agentId]/help/articles/[itemId]",
    direct: true,
    handle: (ctx, request, [agentId, itemId]) =>
      helpArticle(ctx, {
        agentId: agentId!,
        itemId: itemId!,
        clientIp: requestClientIp(request, ctx.trustProxy),
        userAgent: request.headers.get("user-agent"),
      }),
  }),
  /** POST and DELETE /api/agents/{agent_id}/http-api-key (spec 4.6), with the panel's session. */
  httpApiKey: defineRoute({
    methods: ["POST", "DELETE"],
    path: "/api/agents/[agent_id]/http-api-key",
    direct: false,
    handle: async (ctx, request, [agentId], extras) => {
      const session = await extras.session();
      const client = requestClient(request, ctx.trustProxy);
      const caller = { session: session && { ...session, client }, sameOrigin: isSameOrigin(request, ctx.appUrl, ctx.trustProxy) };
      return request.method === "POST" ? generateHttpApiKey(ctx, caller, agentId!) : revokeHttpApiKey(ctx, caller, agentId!);
    },
  }),
  /** POST /api/panel/images: an image uploaded from the panel (the body is the file), with the panel's session. */
  imageUploads: defineRoute({
    methods: ["POST"],
    path: "/api/panel/images",
    direct: false,
    handle: async (ctx, request, _params, extras) =>
      uploadImageResult(ctx, await extras.session(), isSameOrigin(request, ctx.appUrl, ctx.trustProxy), (maxBytes) =>
        readCappedBody(request, maxBytes),
      ),
  }),
  /** GET /api/images/{name}: an uploaded image, public (help pages and articles show it). */
  images: defineRoute({
    methods: ["GET"],
    path: "/api/images/[name]",
    direct: false,
    handle: (ctx, request, [name]) => serveImage(ctx, name!, requestClientIp(request, ctx.trustProxy)),
  }),
  /** GET /help/{agentId}/sitemap.xml */
  helpSitemap: defineRoute({
    methods: ["GET"],
    path: "/help/[agentId]/sitemap.xml",
    direct: false,
    handle: (ctx, _request, [agentId]) => helpSitemap(ctx, { agentId: agentId! }),
  }),
};

/** The methods a route serves, as its Allow header names them. */
export function allowedMethods(route: Route): string[] {
  return route.methods.includes("GET") ? [...route.methods, "HEAD"] : [...route.methods];
}

/** The route's answer to a request: its handler, or 405 for a method it does not serve. */
export function routeResult(
  route: Route,
  ctx: AppContext,
  request: HttpRequest,
  params: string[],
  extras: RouteExtras,
): Promise<HttpResult> {
  if (!allowedMethods(route).includes(request.method)) return Promise.resolve(methodNotAllowedResult(allowedMethods(route)));
  return route.handle(ctx, request, params, extras);
}

/** The route of a path (without its query) with its decoded parameters, or null. */
export function matchRoute(pathname: string, routes: readonly Route[] = Object.values(ROUTES)): { route: Route; params: string[] } | null {
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (match) return { route, params: match.slice(1).map(decodeURIComponent) };
  }
  return null;
}
