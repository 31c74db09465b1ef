// Start-up of this server instance, run once by the instrumentation hook (Node.js runtime only):
// the scheduler (which opens the database, and so takes the embedded folder's lock, unless
// the semantic settings' check did just before), the widget's /ws, and the public REST routes'
// direct path. In production Next only logs a hook that fails and keeps serving 500s, so a failure
// here (the database cannot open, its folder in use or damaged, an invalid variable, a vector
// search the database cannot do) ends the process: one line on stderr, exit code 1.
// Modules are imported statically: each dynamic import of the server's code is bundled as a chunk
// of its own holding every module it reaches, so five of them loaded core five times over (its
// code and source text, about 25 MB of heap). Importing them has no effect of its own; the calls
// below run in the order the start needs.
import { configureLogging } from "@parley/core";
import { warmAgentIndexes } from "@parley/core/knowledge";
import { getDb } from "@parley/db";
import { appEnv, publishNextAuthUrl } from "../env.ts";
import { publicUrl } from "../site.ts";
import { nextAuthUrl } from "./auth.ts";
import { limitRequestBody } from "./body-limit.ts";
import { getAppContext } from "./context.ts";
import { serveDirectRoute } from "./http/direct.ts";
import { processRegistry } from "./registry.ts";
import { startScheduler } from "./scheduler.ts";
import { checkVectorSearch, warmSemanticIndex } from "./semantic.ts";
import { startWidgetSocket } from "./widget-socket.ts";

export async function startServerInstance(): Promise<void> {
  const registry = processRegistry();
  try {
    // The settings, validated once (an invalid variable ends the start here), then what core and
    // next-auth take from them: the log level, and next-auth's URL (it reads process.env alone).
    const settings = appEnv();
    configureLogging({ level: settings.LOG_LEVEL });
    publishNextAuthUrl(nextAuthUrl(settings));
    // Request body caps for server.mjs (body-limit.ts): it holds every request until they are here.
    registry.hooks.limitRequestBody = limitRequestBody;
    // EMBEDDINGS_VECTOR_SEARCH=pgvector on a database without it ends the start here, before any
    // worker would fail on it over and over.
    await checkVectorSearch();
    await startScheduler();
    // The passage index is built from the stored vectors while the server starts serving; until
    // it is ready, turns use lexical retrieval alone.
    warmSemanticIndex();
    await startWidgetSocket();
    // The knowledge agents' passage indexes, built in the background (not awaited): the first
    // turns after a start then find them ready.
    void warmAgentIndexes(await getDb()).catch(() => undefined);
    // The public REST routes without Next's routing (http/direct.ts), in development too: they
    // have no route file, so every request for them takes this path (under `npm run dev`, an
    // edit to their code takes a restart).
    const directPath = { origin: publicUrl(settings), context: getAppContext };
    registry.hooks.serveDirectRoute = (req, res) => serveDirectRoute(req, res, directPath);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Parley could not start: ${message.replace(/\s*\n\s*/g, " ").trim()}`);
    process.exit(1);
  }
  // server.mjs prints that it is listening.
  registry.started?.();
}
