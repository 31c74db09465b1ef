// The table's routes called as Next's route files call them (a fetch Request in, a Response out),
// with a given context and session: what the route-level tests exercise.
import type { AppContext } from "@parley/core";
import type { AdminScope } from "@parley/core/people";
import { fromFetchRequest, requestId } from "~/server/http/request.ts";
import { ROUTES, type Route, routeResult } from "~/server/http/routes.ts";
import { toResponse } from "~/server/http/write.ts";

export async function callRoute(
  route: Route,
  ctx: AppContext,
  request: Request,
  params: string[],
  session: AdminScope | null = null,
): Promise<Response> {
  const httpRequest = fromFetchRequest(request);
  const result = await routeResult(route, ctx, httpRequest, params, { session: async () => session });
  return toResponse(result, requestId(httpRequest));
}

export const messagesRoute = (ctx: AppContext, request: Request, params: { agentId: string }) =>
  callRoute(ROUTES.messages, ctx, request, [params.agentId]);
export const helpCollectionsRoute = (ctx: AppContext, request: Request, params: { agentId: string }) =>
  callRoute(ROUTES.helpCollections, ctx, request, [params.agentId]);
export const helpArticlesRoute = (ctx: AppContext, request: Request, params: { agentId: string }) =>
  callRoute(ROUTES.helpArticles, ctx, request, [params.agentId]);
export const helpArticleRoute = (ctx: AppContext, request: Request, params: { agentId: string; itemId: string }) =>
  callRoute(ROUTES.helpArticle, ctx, request, [params.agentId, params.itemId]);
export const helpSitemapRoute = (ctx: AppContext, request: Request, params: { agentId: string }) =>
  callRoute(ROUTES.helpSitemap, ctx, request, [params.agentId]);
export const createHttpApiKey = (ctx: AppContext, request: Request, params: { agent_id: string }, session: AdminScope | null) =>
  callRoute(ROUTES.httpApiKey, ctx, request, [params.agent_id], session);
export const revokeHttpApiKey = createHttpApiKey;
export const uploadImageRoute = (ctx: AppContext, request: Request, session: AdminScope | null) =>
  callRoute(ROUTES.imageUploads, ctx, request, [], session);
export const imageRoute = (ctx: AppContext, request: Request, params: { name: string }) =>
  callRoute(ROUTES.images, ctx, request, [params.name]);
