// The panel's tRPC client over /api/trpc. Calls made together go out in batches of at most the
// server's PANEL_BATCH_CALLS_MAX (more at once become several requests), so the panel never meets
// the server's refusal of a longer batch.
import type { AppRouter } from "@parley/api";
import { PANEL_BATCH_CALLS_MAX } from "@parley/core/limits";
import { createTRPCClient, httpBatchLink } from "@trpc/client";

type BatchLinkFetch = Parameters<typeof httpBatchLink<AppRouter>>[0]["fetch"];

/** `url` and `fetch` are for tests (an absolute URL, the route handler called directly). */
export function createPanelClient(options: { url?: string; fetch?: BatchLinkFetch } = {}) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: options.url ?? "/api/trpc", fetch: options.fetch, maxItems: PANEL_BATCH_CALLS_MAX })],
  });
}
