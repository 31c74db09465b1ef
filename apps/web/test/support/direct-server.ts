// A real HTTP server over the server entry's direct path (src/server/http/direct.ts, the function
// server.mjs calls for the public REST routes) on a test's context: what production answers on
// these routes, minus what server.mjs does around it (security headers, path check, body caps).
// Any other path gets a bare 404.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppContext } from "@parley/core";
import { serveDirectRoute } from "~/server/http/direct.ts";
import { CLIENT_IP_HEADER } from "~/server/http/request.ts";

export interface DirectServer {
  url: string;
  close(): Promise<void>;
}

export async function startDirectServer(ctx: AppContext): Promise<DirectServer> {
  let origin = "";
  const server = createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
    if (serveDirectRoute(req, res, { origin, context: async () => ctx })) return;
    res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
