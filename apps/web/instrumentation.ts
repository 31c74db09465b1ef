// Next.js instrumentation hook: runs once when a server instance starts (not during builds).
// Starts this instance's webhook delivery worker and publishes the widget's /ws upgrade handler for
// server.mjs (Node.js runtime only).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startWebhookWorker } = await import("./src/server/webhook-worker.ts");
  await startWebhookWorker();
  const { startWidgetSocket } = await import("./src/server/widget-socket.ts");
  await startWidgetSocket();
}
