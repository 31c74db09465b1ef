// A TCP proxy between the app and PostgreSQL that the test can cut: `cut()` destroys every open
// connection and stops accepting (new connections are refused, as with a database that is down),
// `restore()` listens again on the same port. The app sees a real outage: its pooled connections
// die mid-query and reconnects fail until the database is back.
import { once } from "node:events";
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  host: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };

  const listen = async () => {
    const next = createServer((client) => {
      accepted += 1;
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    next.listen(port, "127.0.0.1");
    await once(next, "listening");
    const address = next.address();
    port = typeof address === "object" && address ? address.port : port;
    server = next;
  };

  const cut = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    host: "127.0.0.1",
    port,
    accepted: () => accepted,
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    close: cut,
  };
}
