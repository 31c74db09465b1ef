// Parley's server entry, in development (--dev) and production alike: one Node process serves
// Next.js (pages, route handlers, tRPC), the public REST routes of the direct path, and the
// widget's WebSocket endpoint /ws. Every request takes the same way here: security headers, path
// check, body cap, then the direct path or Next. It records the socket's address for rate limits
// keyed by client IP; a client cannot forge that header because any incoming copy is replaced.
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SECURITY_HEADERS } from "@parley/core/response-headers";
import { SHUTDOWN_DRAIN_MS, SHUTDOWN_EXIT_MS } from "@parley/core/shutdown";
import next from "next";
import { BodyLimitedRequest } from "./src/server/body-limited-request.mjs";
import { refuseBadPath } from "./src/server/request-path.mjs";

const CLIENT_IP_HEADER = "x-parley-client-ip";
// The process registry (src/server/registry.ts): made here, before Next loads the app, and filled
// by the app's start-up hook (src/server/startup.ts) with the hooks this file calls.
const REGISTRY = Symbol.for("parley.process");
globalThis[REGISTRY] ??= { hooks: {}, shutdown: new Set() };
const registry = globalThis[REGISTRY];
const dir = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";

// Next attaches its own upgrade listener (dev HMR, rewrites) to `httpServer`: it gets every
// upgrade except /ws through this emitter.
const nextUpgrades = new EventEmitter();
// In production Next is handed the configuration the build resolved, as its own standalone server
// does (through the same variable): given as `conf` instead, Next still compiles next.config.ts.
const built = dev ? undefined : builtConfig();
if (built) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built);
const app = next({ dev, dir, port, hostname, httpServer: nextUpgrades });
const handle = app.getRequestHandler();
// The server listens before the app is prepared (see below): requests that come meanwhile wait.
let markPrepared;
const prepared = new Promise((resolve) => {
  markPrepared = resolve;
});
// The app's own start-up (src/server/startup.ts: database, worker, /ws, body caps) says when it is done.
let markStarted;
const started = new Promise((resolve) => {
  markStarted = resolve;
});

/**
 * The configuration the production build resolved (without it, Next compiles next.config.ts at
 * every start, loading the 26 MB SWC compiler for good); undefined when there is no build, so that
 * Next says so in its own words.
 */
function builtConfig() {
  try {
    return JSON.parse(readFileSync(path.join(dir, ".next", "required-server-files.json"), "utf8")).config;
  } catch {
    return undefined;
  }
}

// Set on SIGTERM/SIGINT (see shutdown below).
let stopping = false;

const server = createServer({ IncomingMessage: BodyLimitedRequest }, (req, res) => {
  // While stopping, a request that still arrives on an open keep-alive connection is served, and
  // its connection closed after the response: the client (or the load balancer) opens its next
  // one to another instance.
  if (stopping) res.setHeader("connection", "close");
  // A request that was running when stopping began: its connection closes once it has answered,
  // not a keep-alive timeout later (which would hold the exit for 5 s).
  res.once("finish", () => {
    if (stopping) setImmediate(() => server.closeIdleConnections());
  });
  // The one place that adds the security headers (@parley/core/response-headers): set first, they
  // are on every response, whoever writes it (the refusals below, the direct path, Next's pages,
  // route handlers, files, 404s and errors), and nothing else sets them.
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  // A malformed path, or one that routes elsewhere than it reads, gets 400 before anything chooses by path.
  if (refuseBadPath(req, res)) return;
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const serve = () => {
    // The public REST routes, served from the one table of routes without Next's routing
    // (src/server/http/direct.ts, registered at start-up); they have no route file under app/.
    if (registry.hooks.serveDirectRoute?.(req, res)) return;
    prepared.then(() => handle(req, res));
  };
  // Request body caps (src/server/body-limit.ts, published at start-up): each body is counted
  // before Next or a route reads it, and refused with 413 past the limit of its path. Until then
  // BodyLimitedRequest keeps what arrives of the body (a little, then it stops reading).
  started.then(() => {
    const limitRequestBody = registry.hooks.limitRequestBody;
    if (limitRequestBody) limitRequestBody(req, res, serve);
    else {
      req.streamBody();
      serve();
    }
  });
});
// /ws: the widget and SDK (src/server/widget-socket.ts, published by the instrumentation hook).
server.on("upgrade", (req, socket, head) => {
  if (stopping) {
    socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n");
    return;
  }
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const pathname = (req.url ?? "/").split("?")[0];
  if (pathname !== "/ws") {
    if (nextUpgrades.listenerCount("upgrade") > 0) nextUpgrades.emit("upgrade", req, socket, head);
    else socket.destroy();
    return;
  }
  const handleWidget = registry.hooks.upgrade;
  if (handleWidget) handleWidget(req, socket, head);
  else socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n");
});
// The port is taken first, then the app prepares (the instrumentation hook opens the database and
// starts the scheduler and /ws; src/server/startup.ts ends the process if that fails).
// Any failure ends the process with one line and exit code 1: nothing runs without a listener.
function startupFailureLine(error) {
  if (error?.code === "EADDRINUSE")
    return `Port ${port} is in use: another process listens on ${hostname}:${port}; stop it or set PORT to a free port.`;
  if (error?.code === "ENOTFOUND" || error?.code === "EADDRNOTAVAIL")
    return `HOST ${hostname} is not an address of this machine; set HOST to one of its addresses or host names.`;
  if (error?.code === "EACCES") return `Port ${port} cannot be opened on ${hostname}: permission denied; set PORT to a port above 1023.`;
  if (error?.code === "ERR_SOCKET_BAD_PORT")
    return `Invalid environment variables: PORT: must be a port number from 1 to 65535, not "${process.env.PORT}".`;
  return `Parley could not start: ${String(error?.message ?? error)
    .replace(/\s*\n\s*/g, " ")
    .trim()}`;
}
function exitOnStartupFailure(error) {
  console.error(startupFailureLine(error));
  process.exit(1);
}
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(port, hostname, resolve);
}).catch(exitOnStartupFailure);
// Said by the app once its start-up is done (src/server/startup.ts): in production Next's prepare()
// returns before the instrumentation hook has run.
registry.started = () => {
  markStarted();
  console.log(`Parley is listening on http://localhost:${port}`);
};
await app.prepare().catch(exitOnStartupFailure);
markPrepared();

// Graceful shutdown (SIGTERM from an orchestrator or `docker stop`, SIGINT from Ctrl-C): the
// listener closes at once (new connections are refused, so the load balancer sends them to another
// instance) and idle keep-alive connections with it; requests in flight, running turns among them,
// finish. The app's hooks run meanwhile (src/server/registry.ts), given the drain bound: /ws lets
// each running widget turn reply, then closes the socket with 1001 (the widget reconnects, to
// another instance); the scheduler stops, handing back the webhook deliveries it holds. The process
// exits once all of that is done, or at SHUTDOWN_EXIT_MS (@parley/core/shutdown) whatever runs.
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  const since = performance.now();
  const elapsed = () => `${Math.round(performance.now() - since)} ms`;
  console.log(`${signal}: stopping; running work has ${SHUTDOWN_DRAIN_MS / 1000} s to finish`);
  setTimeout(() => {
    console.log(`Stopped after ${elapsed()}: work still running was cut off`);
    process.exit(0);
  }, SHUTDOWN_EXIT_MS).unref();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const hooks = [...registry.shutdown];
  await Promise.allSettled([...hooks.map((hook) => hook(SHUTDOWN_DRAIN_MS)), closed]);
  console.log(`Stopped after ${elapsed()}: running work finished`);
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
