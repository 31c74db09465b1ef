// Next.js instrumentation hook: runs once when a server instance starts (not during builds).
// Starts this instance's webhook delivery worker and publishes, for server.mjs, the request body
// caps, the widget's /ws upgrade handler and the public REST routes' direct path (Node.js runtime only).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Request body caps for server.mjs (src/server/body-limit.ts), which creates its server with them.
  const { BodyLimitedRequest, limitRequestBody } = await import("./src/server/body-limit.ts");
  (globalThis as Record<symbol, unknown>)[Symbol.for("parley.bodyLimit")] = { BodyLimitedRequest, limitRequestBody };
  const { startWebhookWorker } = await import("./src/server/webhook-worker.ts");
  await startWebhookWorker();
  const { startWidgetSocket } = await import("./src/server/widget-socket.ts");
  await startWidgetSocket();
  // The public REST routes without Next's routing (src/server/public-routes.ts); `next dev` keeps
  // Next's path so that edits reload.
  if (process.env.NODE_ENV === "production") {
    const { servePublicRoute } = await import("./src/server/public-routes.ts");
    (globalThis as Record<symbol, unknown>)[Symbol.for("parley.publicRoutes")] = servePublicRoute;
  }
}
