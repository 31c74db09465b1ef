// Next.js instrumentation hook: runs once when a server instance starts (not during builds).
// Starts this instance's scheduler (background tasks) and publishes, for server.mjs, the request body
// caps, the widget's /ws upgrade handler and the public REST routes' direct path
// (src/server/startup.ts; Node.js runtime only). A start-up failure there ends the process.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerInstance } = await import("./src/server/startup.ts");
  await startServerInstance();
}
