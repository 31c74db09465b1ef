// The routes of Parley's HTTP API, one table for both ways a request arrives: the server entry's
// direct path (node.ts; production serves the public routes there, without Next's routing) and
// Next's route files (next.ts; `next dev`, and the routes that need Next's session cookies). Each
// route reads its inputs from the request and makes one core call; core answers with the status,
// headers and body.
import type { AppContext, HttpResult } from "@parley/core";
import { isSameOrigin, methodNotAllowedResult } from "@parley/core";
import { generateHttpApiKey, revokeHttpApiKey } from "@parley/core/agents";
import { sendMessage } from "@parley/core/conversations";
import { helpArticle, helpArticles, helpCollections, helpSitemap } from "@parley/core/help";
import type { AdminScope } from "@parley/core/people";
import { readJsonBody } from "./json-body.ts";
import { bearerToken, type HttpRequest, requestClient, requestClientIp } from "./request.ts";

/** What a route may need beyond the request: the panel session (read only where a route asks). */
export interface RouteExtras {
  session(): Promise<AdminScope | null>;
}

export interface Route {
  /** The methods served; GET also serves HEAD. */
  methods: readonly string[];
  /** The path; its groups are the (still encoded) path parameters. */
  pattern: RegExp;
  /** Served on the server entry's direct path in production (else only through Next's route file). */
  direct: boolean;
  handle(ctx: AppContext, request: HttpRequest, params: string[], extras: RouteExtras): Promise<HttpResult>;
}

export const ROUTES = {
  /** POST /api/agent/{agentId}/messages (spec 4.1) */
  messages: {
    methods: ["POST"],
    pattern: /^\/api\/agent\/([^/]+)\/messages$/,
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
  },
  /** GET /api/agent/{agentId}/help (spec 4.2) */
  helpCollections: {
    methods: ["GET"],
    pattern: /^\/api\/agent\/([^/]+)\/help$/,
    direct: true,
    handle: (ctx, request, [agentId]) => helpCollections(ctx, { agentId: agentId!, clientIp: requestClientIp(request, ctx.trustProxy) }),
  },
  /** GET /api/agent/{agentId}/help/articles?source=&q= (spec 4.3) */
  helpArticles: {
    methods: ["GET"],
    pattern: /^\/api\/agent\/([^/]+)\/help\/articles$/,
    direct: true,
    handle: (ctx, request, [agentId]) =>
      helpArticles(ctx, { agentId: agentId!, clientIp: requestClientIp(request, ctx.trustProxy), query: request.url.searchParams }),
  },
  /** GET /api/agent/{agentId}/help/articles/{itemId} (spec 4.4) */
  helpArticle: {
    methods: ["GET"],
    pattern: /^\/api\/agent\/([^/]+)\/help\/articles\/([^/]+)$/,
    direct: true,
    handle: (ctx, request, [agentId, itemId]) =>
      helpArticle(ctx, { agentId: agentId!, itemId: itemId!, clientIp: requestClientIp(request, ctx.trustProxy) }),
  },
  /** POST and DELETE /api/agents/{agent_id}/http-api-key (spec 4.6), with the panel's session. */
  httpApiKey: {
    methods: ["POST", "DELETE"],
    pattern: /^\/api\/agents\/([^/]+)\/http-api-key$/,
    direct: false,
    handle: async (ctx, request, [agentId], extras) => {
      const session = await extras.session();
      const client = requestClient(request, ctx.trustProxy);
      const caller = { session: session && { ...session, client }, sameOrigin: isSameOrigin(request, ctx.appUrl, ctx.trustProxy) };
      return request.method === "POST" ? generateHttpApiKey(ctx, caller, agentId!) : revokeHttpApiKey(ctx, caller, agentId!);
    },
  },
  /** GET /help/{agentId}/sitemap.xml */
  helpSitemap: {
    methods: ["GET"],
    pattern: /^\/help\/([^/]+)\/sitemap\.xml$/,
    direct: false,
    handle: (ctx, _request, [agentId]) => helpSitemap(ctx, { agentId: agentId! }),
  },
} satisfies Record<string, Route>;

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
