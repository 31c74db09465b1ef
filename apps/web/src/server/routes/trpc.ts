// The control panel's tRPC endpoint (/api/trpc/*) over the fetch adapter. The session and the
// origin check are resolved here, from the request, and handed to the router's context.
import { appRouter, createTRPCContext } from "@parley/api";
import type { AppContext } from "@parley/core";
import { isSameOrigin, logger } from "@parley/core";
import { PANEL_BATCH_CALLS_MAX } from "@parley/core/limits";
import type { AdminScope } from "@parley/core/people";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { requestClient } from "~/server/http/request.ts";

export const TRPC_ENDPOINT = "/api/trpc";

export function trpcResponse(ctx: AppContext, request: Request, session: AdminScope | null): Promise<Response> {
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: request,
    router: appRouter,
    // A longer batch is refused whole (400) before any call runs: one request cannot queue unbounded work.
    maxBatchSize: PANEL_BATCH_CALLS_MAX,
    createContext: () =>
      createTRPCContext({
        ctx,
        session,
        sameOrigin: isSameOrigin(request, ctx.appUrl, ctx.trustProxy),
        client: requestClient(request, ctx.trustProxy),
      }),
    // Panel data is per admin and changes under their hands: never cached.
    responseMeta: () => ({ headers: new Headers({ "cache-control": "no-store" }) }),
    onError({ error, path }) {
      if (error.code !== "INTERNAL_SERVER_ERROR") return;
      const cause = error.cause ?? error;
      logger.error("tRPC procedure failed", { path, error: `${cause.name}: ${cause.message}` });
    },
  });
}
