// Start-up of this server instance, run once by the instrumentation hook (Node.js runtime only):
// the webhook worker (which opens the database, and so takes the embedded folder's lock, unless
// the semantic settings' check did just before), the widget's /ws, and the public REST routes'
// direct path. In production Next only logs a hook that fails and keeps serving 500s, so a failure
// here (the database cannot open, its folder in use or damaged, an invalid variable, a vector
// search the database cannot do) ends the process: one line on stderr, exit code 1.
import { processRegistry } from "./registry.ts";

export async function startServerInstance(): Promise<void> {
  const registry = processRegistry();
  try {
    // The settings, validated once (an invalid variable ends the start here), then what core and
    // next-auth take from them: the log level, and next-auth's URL (it reads process.env alone).
    const { appEnv } = await import("../env.ts");
    const settings = appEnv();
    const { configureLogging } = await import("@parley/core");
    configureLogging({ level: settings.LOG_LEVEL });
    const { nextAuthUrl } = await import("./auth.ts");
    process.env.NEXTAUTH_URL = nextAuthUrl(settings);
    // Request body caps for server.mjs (body-limit.ts): it holds every request until they are here.
    const { limitRequestBody } = await import("./body-limit.ts");
    registry.hooks.limitRequestBody = limitRequestBody;
    // EMBEDDINGS_VECTOR_SEARCH=pgvector on a database without it ends the start here, before any
    // worker would fail on it over and over.
    const { checkVectorSearch } = await import("./semantic.ts");
    await checkVectorSearch();
    const { startWebhookWorker } = await import("./webhook-worker.ts");
    await startWebhookWorker();
    // The passage index is built from the stored vectors while the server starts serving; until
    // it is ready, turns use lexical retrieval alone.
    const { warmSemanticIndex } = await import("./semantic.ts");
    warmSemanticIndex();
    const { startWidgetSocket } = await import("./widget-socket.ts");
    await startWidgetSocket();
    // The knowledge agents' passage indexes, built in the background (not awaited): the first
    // turns after a start then find them ready.
    const { warmAgentIndexes } = await import("@parley/core/engine");
    const { getDb } = await import("@parley/db");
    void warmAgentIndexes(await getDb()).catch(() => undefined);
    // The public REST routes without Next's routing (http/direct.ts); `next dev` keeps Next's
    // path so that edits reload.
    if (settings.NODE_ENV === "production") {
      const { serveDirectRoute } = await import("./http/direct.ts");
      const { publicAppUrl } = await import("@parley/db");
      const origin = publicAppUrl(settings);
      registry.hooks.serveDirectRoute = (req, res) => serveDirectRoute(req, res, origin);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Parley could not start: ${message.replace(/\s*\n\s*/g, " ").trim()}`);
    process.exit(1);
  }
  // server.mjs prints that it is listening.
  registry.started?.();
}
