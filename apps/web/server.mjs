// Parley's server entry: one Node process serves Next.js (pages, route handlers, tRPC) and, later,
// WebSocket upgrades. It records the socket's address for rate limits keyed by client IP; a client
// cannot forge that header because any incoming copy is replaced.
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";

const CLIENT_IP_HEADER = "x-parley-client-ip";
const dir = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";

const app = next({ dev, dir, port, hostname });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  handle(req, res);
});
server.listen(port, hostname, () => {
  console.log(`Parley is listening on http://localhost:${port}`);
});

function shutdown() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
